import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { lazyRoute, ROUTE_CODE_RETRY_PAUSES, RouteTree } from './route-tree.tsx';

const chunkFailure = () => new TypeError('Failed to fetch dynamically imported module: /assets/Page-x.js');

function Page() {
  return <p>The page</p>;
}

function renderAt(load: () => Promise<typeof Page>) {
  return render(
    <MemoryRouter>
      <RouteTree routes={[{ path: '/', Component: lazyRoute(load) }]} />
    </MemoryRouter>,
  );
}

describe('a lazy route’s code', () => {
  it('is fetched again when a fetch fails on a passing glitch, and the page shows', async () => {
    const load = vi
      .fn<() => Promise<typeof Page>>()
      .mockRejectedValueOnce(chunkFailure())
      .mockRejectedValueOnce(chunkFailure())
      .mockResolvedValue(Page);
    renderAt(load);
    expect(await screen.findByText('The page', undefined, { timeout: 5000 })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('shows the error screen once every try has failed', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = vi.fn<() => Promise<typeof Page>>().mockRejectedValue(chunkFailure());
    renderAt(load);
    expect(
      await screen.findByRole('heading', { name: 'Something went wrong' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(ROUTE_CODE_RETRY_PAUSES.length + 1);
  });
});
