import { formatMoney } from '@debesis/pricing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ORDER_ID } from '../../payments/payment-fixtures.ts';
import { providerNavigation } from '../../payments/payments-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { SERVICE_ID } from '../../test/service-fixtures.ts';
import { makePlanChange, PLAN_CHANGE_ID, planChangeOrder } from '../plan-changes/plan-change-fixtures.ts';
import { signIn } from '../../test/sign-in.ts';

const PROVIDER_URL = '/payments-sandbox/sessions/ps_test_session_0001';
const PAGE = `/dashboard/payments/plan-change/${PLAN_CHANGE_ID}/payment`;
const euro = (minor: number) => formatMoney(minor, 'en-US');

function answers(change = makePlanChange(), order = planChangeOrder(change)) {
  server.use(
    http.get(`/api/v1/plan-changes/${PLAN_CHANGE_ID}`, () => HttpResponse.json(change)),
    http.get(`/api/v1/orders/${ORDER_ID}`, () => HttpResponse.json(order)),
  );
  return { change, order };
}

beforeEach(() => signIn());

describe('paying for a plan change (/dashboard/payments/plan-change/{id}/payment)', () => {
  it('shows from → to and the order’s exact amounts with the credit used, then pays', async () => {
    const change = makePlanChange();
    const { order } = answers(change, planChangeOrder(change, 1000));
    server.use(
      http.post(`/api/v1/orders/${ORDER_ID}/process`, () =>
        HttpResponse.json({ session_id: 'ps_test_session_0001', url: PROVIDER_URL }),
      ),
    );
    const open = vi.spyOn(providerNavigation, 'open').mockImplementation(() => undefined);
    renderApp(PAGE);

    expect((await screen.findByTestId('payment-from')).textContent).toBe('MINI · 50 GB · 5 users');
    expect(screen.getByTestId('payment-to').textContent).toBe('OPTIMIZED · 500 GB · 10 users');
    expect(screen.getByTestId('payment-total').textContent).toBe(euro(order.amount));
    expect(screen.getByTestId('plan-change-total').textContent).toBe(euro(order.amount));
    expect(screen.getByTestId('plan-change-credit-applied').textContent).toBe(euro(-1000));
    expect(screen.getByTestId('plan-change-difference').textContent).toBe(euro(change.prorated_difference));

    await userEvent.click(screen.getByTestId('payment-pay'));
    await waitFor(() => expect(open).toHaveBeenCalledWith(PROVIDER_URL));
  });

  it('says "Plan change details not found" for an unknown change', async () => {
    server.use(
      http.get(`/api/v1/plan-changes/${PLAN_CHANGE_ID}`, () =>
        HttpResponse.json({ detail: 'not_found', message: 'Not found' }, { status: 404 }),
      ),
    );
    renderApp(PAGE);
    expect((await screen.findByTestId('payment-error')).textContent).toBe('Plan change details not found');
  });

  it('needs no payment for an applied change, and sends a replaced one back to plan change', async () => {
    answers(makePlanChange({ status: 'applied', applied_at: '2026-06-29T10:00:00.000Z' }));
    const first = renderApp(PAGE);
    expect((await screen.findByTestId('payment-notice')).textContent).toBe(
      'This plan change is already applied.',
    );
    expect(screen.getByTestId('payment-plans-link').getAttribute('href')).toBe('/dashboard/plans');
    first.unmount();

    answers(makePlanChange({ status: 'cancelled' }));
    renderApp(PAGE);
    expect((await screen.findByTestId('payment-notice')).textContent).toContain('replaced by a newer one');
    expect(screen.getByTestId('payment-change-again').getAttribute('href')).toBe(
      `/dashboard/plans/change?service=${SERVICE_ID}`,
    );
  });

  it('says a paid change waits for room on the storage node, with no payment asked again', async () => {
    answers(makePlanChange({ status: 'awaiting_room' }));
    renderApp(PAGE);
    expect((await screen.findByTestId('payment-notice')).textContent).toBe(
      'Paid. The storage node has no room for the larger disk yet: the change is applied as soon as it has, and the workspace keeps its current plan until then.',
    );
    expect(screen.getByTestId('payment-plans-link').getAttribute('href')).toBe('/dashboard/plans');
  });

  it('shows why the last payment failed and retries it', async () => {
    const change = makePlanChange();
    answers(
      change,
      planChangeOrder(change, 0, {
        status: 'FAILED',
        error_message: 'Card declined',
        error_details: '{"message":"Do not honor"}',
      }),
    );
    server.use(
      http.post(`/api/v1/orders/${ORDER_ID}/retry-payment`, () =>
        HttpResponse.json({ session_id: 'ps_test_session_0002', url: PROVIDER_URL }),
      ),
    );
    const open = vi.spyOn(providerNavigation, 'open').mockImplementation(() => undefined);
    renderApp(PAGE);

    // The provider's reason once, after the lead: not 'failed: Card declined: …'.
    expect((await screen.findByTestId('payment-failure-reason')).textContent).toBe(
      'The last payment attempt failed: Do not honor',
    );
    await userEvent.click(screen.getByTestId('payment-retry'));
    await waitFor(() => expect(open).toHaveBeenCalledWith(PROVIDER_URL));
  });
});
