import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppErrorBoundary } from './AppErrorBoundary.tsx';
import { RouteTree } from './route-tree.tsx';

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

  it('shows the error screen for a failing page and renders the page again on Try Again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    broken = true;
    render(
      <MemoryRouter>
        <RouteTree routes={[{ path: '/', Component: FlakyWidget }]} />
      </MemoryRouter>,
    );

    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeTruthy();

    broken = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));

    expect(await screen.findByText('Widget works')).toBeTruthy();
  });

  it('clears a page’s error screen when the visitor navigates elsewhere', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    broken = true;
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <Link to="/other">Elsewhere</Link>
        <RouteTree
          routes={[
            { path: '/broken', Component: FlakyWidget },
            { path: '/other', element: <p>Other page</p> },
          ]}
        />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();

    await userEvent.click(screen.getByRole('link', { name: 'Elsewhere' }));

    expect(await screen.findByText('Other page')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
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
