import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppErrorBoundary } from './AppErrorBoundary.tsx';
import { RouteErrorPage } from './RouteErrorPage.tsx';

/** Fails while `broken`; a test repairs it before pressing Try Again, like a passing glitch. */
let broken = false;

function FlakyWidget() {
  if (broken) throw new Error('widget failed');
  return <p>Widget works</p>;
}

describe('error boundaries', () => {
  afterEach(() => {
    broken = false;
  });

  it('shows the route error page and renders the page again on Try Again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    broken = true;
    const router = createMemoryRouter([
      { path: '/', element: <FlakyWidget />, errorElement: <RouteErrorPage /> },
    ]);
    render(<RouterProvider router={router} />);

    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeTruthy();

    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));

    expect(await screen.findByText('Widget works')).toBeTruthy();
  });

  it('catches what escapes the router and recovers on Try Again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    broken = true;
    render(
      <AppErrorBoundary>
        <FlakyWidget />
      </AppErrorBoundary>,
    );

    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Widget works')).toBeTruthy();
  });
});
