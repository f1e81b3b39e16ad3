import { CSRF_COOKIE, STORAGE_KEYS } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { setSessionClock, systemClock } from '../auth/clock.ts';
import { makeUser, storeSession, userHandler } from '../test/fixtures.ts';
import { renderApp } from '../test/render-app.tsx';
import { server } from '../test/server.ts';
import { catalogueHandlers } from '../pages/plans/plans-fixtures.ts';
import { AppRoutes } from './router.tsx';

describe('routes', () => {
  it('give every page but the home page the server-data cache themselves (the home page does not load it)', async () => {
    server.use(...catalogueHandlers());
    // No QueryClientProvider around the router, as in main.tsx: the routes bring their own.
    const home = render(
      <MemoryRouter initialEntries={['/']}>
        <AppRoutes />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { level: 1 })).toBeTruthy();
    home.unmount();
    render(
      <MemoryRouter initialEntries={['/pricing']}>
        <AppRoutes />
      </MemoryRouter>,
    );
    expect(await screen.findByTestId('plan-card-mini')).toBeTruthy();
  });

  it('sends a visitor without a session to sign in and remembers where they were going', async () => {
    const { router } = renderApp('/dashboard/services?tab=all');

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(router.state.location.state).toEqual({ from: '/dashboard/services?tab=all' });
  });

  it('redirects /dashboard to the services page for a signed-in user', async () => {
    storeSession();
    server.use(userHandler());
    const { router } = renderApp('/dashboard');

    expect(await screen.findByText('You have no services yet')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard/services');
    const plansLink = screen.getByRole('link', { name: 'See plans' });
    expect(plansLink.getAttribute('href')).toBe('/auth/plans');
  });

  it('shows the not-found page with its way-out links for an unknown path', async () => {
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    const hrefs = [
      'not-found-dashboard',
      'not-found-services',
      'not-found-plans',
      'not-found-home',
      'not-found-sign-in',
    ].map((id) => screen.getByTestId(id).getAttribute('href'));
    expect(hrefs).toEqual(['/dashboard', '/dashboard/services', '/dashboard/plans', '/', '/auth/login']);
  });

  it('shows who is signed in in the header and logs out from there', async () => {
    document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
    storeSession('token', 'refresh');
    const loggedOut: unknown[] = [];
    server.use(
      userHandler(makeUser({ first_name: 'Ona', last_name: 'Petraitė', theme: 'dark' })),
      http.post('/api/v1/auth/logout', async ({ request }) => {
        loggedOut.push(await request.json());
        return HttpResponse.json({ message: 'Signed out' });
      }),
    );
    const { router } = renderApp('/dashboard/services');

    expect((await screen.findByTestId('header-user-name')).textContent).toContain('Ona Petraitė');
    await userEvent.click(screen.getByTestId('header-logout'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(loggedOut).toEqual([{ refresh_token: 'refresh' }]);
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.theme)).toBe('dark');
    expect(await screen.findByTestId('login-form')).toBeTruthy();
  });

  it('says "Failed to load user data" when the user cannot be loaded, and tries again on request', async () => {
    storeSession();
    let calls = 0;
    server.use(
      http.get('/api/v1/users/me', () => {
        calls += 1;
        return calls <= 4 ? HttpResponse.error() : HttpResponse.json(makeUser());
      }),
    );
    // The 1, 2 and 3 s waits between attempts, without waiting them.
    const restoreClock = setSessionClock({
      ...systemClock,
      setTimeout: (callback) => setTimeout(callback, 0),
    });
    try {
      renderApp('/dashboard/services');

      const failed = await screen.findByTestId('session-load-failed');
      expect(failed.textContent).toContain('Failed to load user data');
      expect(calls).toBe(4);
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));

      expect(await screen.findByText('You have no services yet')).toBeTruthy();
      expect(calls).toBe(5);
    } finally {
      restoreClock();
    }
  });

  it('opens the dashboard menu from its button and closes it with Escape and on navigation', async () => {
    storeSession();
    server.use(userHandler());
    const { router } = renderApp('/dashboard/services');
    const user = userEvent.setup();
    const menuButton = await screen.findByTestId('dashboard-menu-button');
    const drawer = document.getElementById(menuButton.getAttribute('aria-controls') ?? '');

    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
    await user.click(menuButton);
    expect(menuButton.getAttribute('aria-expanded')).toBe('true');
    expect(drawer?.dataset.open).toBe('true');

    await user.keyboard('{Escape}');
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(menuButton);

    await user.click(menuButton);
    await user.click(screen.getByRole('link', { name: 'Billing' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/billing'));
    await waitFor(() => expect(menuButton.getAttribute('aria-expanded')).toBe('false'));
  });
});
