import { STORAGE_KEYS } from '@debesis/contract';
import { calculatePrice, initialCalculation } from '@debesis/pricing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/language.ts';
import { storeSelectedPlan } from '../../plans/selected-plan-store.ts';
import type { SelectedPlan } from '../../plans/selected-plan.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { catalogueHandlers, productById, setCsrfCookie } from '../plans/plans-fixtures.ts';

/** MINI with more disk and users than it includes, for 12 months: what the visitor chose. */
function chosenPlan(): SelectedPlan {
  const mini = productById('mini');
  const selection = { disk_space: 150, users_count: 7, period_id: '12m' };
  return {
    product_id: 'mini',
    ...selection,
    bandwidth: 300,
    selected_options: [
      { type: 'disk_space', value: 100 },
      { type: 'users', value: 2 },
    ],
    product_name: 'MINI — 150 GB Storage, 7 Users',
    period_name: '12 months',
    initial_calculation: initialCalculation(calculatePrice(mini, selection, null)),
  };
}

beforeEach(() => {
  setCsrfCookie();
});

describe('the register page and the chosen plan', () => {
  it('shows the plan chosen before, in the reader’s language', async () => {
    await changeLanguage('lt');
    server.use(...catalogueHandlers());
    storeSelectedPlan(chosenPlan());
    renderApp('/auth/register');

    await screen.findByTestId('register-plan');
    await waitFor(() => expect(screen.getByTestId('register-plan-name').textContent).toBe('MINI'));
    await waitFor(() =>
      expect(screen.getByTestId('register-plan-facts').textContent).toBe(
        '150 GB, naudotojų: 7, laikotarpis: 12 mėn.',
      ),
    );
    expect(screen.getByTestId('register-plan-total').textContent).toMatch(/^Iš viso .+ be PVM$/);
  });

  it('keeps it when the visitor goes back to change it: the picker opens it as it was', async () => {
    server.use(...catalogueHandlers());
    storeSelectedPlan(chosenPlan());
    const user = userEvent.setup();
    const { router } = renderApp('/auth/register');

    await user.click(await screen.findByTestId('register-plan-change'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/plans'));
    expect(await screen.findByTestId<HTMLInputElement>('plan-disk')).toHaveProperty('value', '150');
    expect(screen.getByTestId<HTMLInputElement>('plan-users').value).toBe('7');
    expect(screen.getByTestId('plan-card-mini').className).toContain('plan-card--chosen');
    expect(window.localStorage.getItem(STORAGE_KEYS.selectedPlan)).not.toBeNull();
  });

  it('shows nothing of a plan when none was chosen', async () => {
    renderApp('/auth/register');
    await screen.findByTestId('register-form');
    expect(screen.queryByTestId('register-plan')).toBeNull();
  });
});
