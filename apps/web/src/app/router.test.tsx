import { STORAGE_KEYS } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render-app.tsx';

describe('routes', () => {
  it('sends a visitor without a session to sign in and remembers where they were going', async () => {
    const { router } = renderApp('/dashboard/services?tab=all');

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/login');
    expect(router.state.location.state).toEqual({ from: '/dashboard/services?tab=all' });
  });

  it('redirects /dashboard to the services page for a signed-in user', async () => {
    window.localStorage.setItem(STORAGE_KEYS.accessToken, 'token');
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

  it('logs out from the header: tokens are forgotten and the login page opens', async () => {
    window.localStorage.setItem(STORAGE_KEYS.accessToken, 'token');
    window.localStorage.setItem(STORAGE_KEYS.refreshToken, 'refresh');
    window.localStorage.setItem(STORAGE_KEYS.theme, 'dark');
    const { router } = renderApp('/dashboard/services');

    await userEvent.click(await screen.findByRole('button', { name: 'Log out' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.theme)).toBe('dark');
  });

  it('opens the dashboard menu from its button and closes it with Escape and on navigation', async () => {
    window.localStorage.setItem(STORAGE_KEYS.accessToken, 'token');
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
