import { STORAGE_KEYS } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { catalogueHandlers } from '../pages/plans/plans-fixtures.ts';
import { storeSession, userHandler } from '../test/fixtures.ts';
import { renderApp } from '../test/render-app.tsx';
import { server } from '../test/server.ts';
import { keepsSelectedPlan } from './selected-plan.ts';

const stored = () => window.localStorage.getItem(STORAGE_KEYS.selectedPlan);

describe('selected plan lifetime (spec §4)', () => {
  it('is kept only on auth, pricing and new-payment routes', () => {
    for (const path of [
      '/auth',
      '/auth/plans',
      '/auth/register',
      '/auth/login',
      '/pricing',
      '/dashboard/payments/new/payment',
      '/dashboard/payments/new/complete',
    ]) {
      expect(keepsSelectedPlan(path), path).toBe(true);
    }
    for (const path of [
      '/',
      '/about',
      '/pricing-old',
      '/authx',
      '/dashboard',
      '/dashboard/services',
      '/dashboard/payments/retry/1/payment',
      '/dashboard/payments/newer',
    ]) {
      expect(keepsSelectedPlan(path), path).toBe(false);
    }
  });

  it('survives the plan pages and is cleared when the visitor navigates elsewhere', async () => {
    server.use(...catalogueHandlers());
    window.localStorage.setItem(STORAGE_KEYS.selectedPlan, '{"product_id":"mini"}');
    const { router } = renderApp('/pricing');
    await screen.findByTestId('plan-list');

    await router.navigate('/auth/register');
    await screen.findByTestId('register-form');
    expect(stored()).not.toBeNull();

    await router.navigate('/');
    await waitFor(() => expect(stored()).toBeNull());
  });

  it('is cleared when a page outside the allowed routes is opened first', async () => {
    storeSession();
    server.use(userHandler());
    window.localStorage.setItem(STORAGE_KEYS.selectedPlan, '{"product_id":"mini"}');
    renderApp('/dashboard/services');

    await waitFor(() => expect(stored()).toBeNull());
  });
});
