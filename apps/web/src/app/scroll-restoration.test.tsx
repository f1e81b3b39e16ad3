import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Route, Routes, useNavigate } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useScrollRestoration } from './scroll-restoration.ts';

function Shell() {
  useScrollRestoration();
  const navigate = useNavigate();
  return (
    <>
      <Link to="/long">Long page</Link>
      <Link to="/other#faq">Other page’s FAQ</Link>
      <button type="button" onClick={() => void navigate(-1)}>
        Back
      </button>
      <Routes>
        <Route path="/long" element={<p>Long page body</p>} />
        <Route
          path="/other"
          element={
            <p id="faq" data-testid="faq">
              FAQ
            </p>
          }
        />
      </Routes>
    </>
  );
}

/** jsdom does not scroll: the page "is" at `y` and says so, as a browser would after scrolling. */
function scrollPageTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  window.dispatchEvent(new Event('scroll'));
}

describe('scroll restoration', () => {
  afterEach(() => {
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
    // jsdom has none; the test lends one.
    Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
  });

  it('starts a new page at the top and returns to where the visitor was on back', async () => {
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={['/long']}>
        <Shell />
      </MemoryRouter>,
    );
    await screen.findByText('Long page body');
    scrollPageTo(1200);
    const scrollTo = vi.spyOn(window, 'scrollTo');
    scrollTo.mockClear();

    const scrolledIntoView = vi.fn();
    Element.prototype.scrollIntoView = scrolledIntoView;
    await user.click(screen.getByRole('link', { name: 'Other page’s FAQ' }));
    await screen.findByTestId('faq');
    expect(scrolledIntoView.mock.contexts).toEqual([screen.getByTestId('faq')]);
    expect(scrollTo).not.toHaveBeenCalled();

    await act(() => user.click(screen.getByRole('button', { name: 'Back' })));
    await screen.findByText('Long page body');
    expect(scrollTo).toHaveBeenLastCalledWith(0, 1200);

    scrollTo.mockClear();
    await user.click(screen.getByRole('link', { name: 'Long page' }));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
  });
});
