import { STORAGE_KEYS, type PaymentSessionStatus } from '@debesis/contract';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../i18n/language.ts';
import {
  makeSelectedPlan,
  makeSessionStatus,
  ORDER_ID,
  SESSION_ID,
} from '../../payments/payment-fixtures.ts';
import { COMPLETION_POLL_MS, COMPLETION_TIMEOUT_MS } from '../../payments/payments-api.ts';
import { storeSelectedPlan } from '../../plans/selected-plan-store.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { settle, until, useSessionFakeTimers } from '../../test/timing.ts';

const STATUS_PATH = `/api/v1/payments/session/${SESSION_ID}/status`;
const completePath = `/dashboard/payments/new/${ORDER_ID}/payment/complete?session_id=${SESSION_ID}`;

/** Answers each poll with the next status (the last one repeats); counts the polls. */
function statuses(...answers: PaymentSessionStatus[]) {
  const polls = { count: 0 };
  server.use(
    http.get(STATUS_PATH, () => {
      const answer = answers[Math.min(polls.count, answers.length - 1)];
      polls.count += 1;
      return HttpResponse.json(answer);
    }),
  );
  return polls;
}

const pending = makeSessionStatus({ status: 'pending' });
const failedWith = (error_message: string | null, error_details: string | null) =>
  makeSessionStatus({ status: 'failed', order_status: 'FAILED', error_message, error_details });

/** Moves the fake clock one poll on and lets the poll's request finish. */
async function nextPoll(): Promise<void> {
  await vi.advanceTimersByTimeAsync(COMPLETION_POLL_MS);
  await settle();
}

const shown = (testId: string) => screen.queryByTestId(testId) !== null;

// Loaded once up front: on the fake clock, waiting for the first transform could run out.
beforeAll(async () => {
  await import('./PaymentCompletePage.tsx');
});

describe('payment completion pages (no sign-in needed)', () => {
  it('shows processing, then success once the order is paid, and forgets the selected plan', async () => {
    useSessionFakeTimers();
    storeSelectedPlan(makeSelectedPlan());
    const polls = statuses(
      pending,
      pending,
      makeSessionStatus({ status: 'succeeded', order_status: 'PAID' }),
    );
    const { router } = renderApp(completePath);

    await until(() => shown('completion-processing'), 'processing');
    await until(() => polls.count === 1, 'first poll');
    await nextPoll();
    expect(screen.getByTestId('completion-processing')).toBeTruthy();
    await nextPoll();

    await until(() => shown('completion-success'), 'success');
    expect(screen.getByTestId('completion-success').textContent).toContain('Payment successful');
    expect(screen.getByTestId('completion-success').textContent).toContain('usually ready within a minute');
    expect(screen.getByTestId('completion-services-link').getAttribute('href')).toBe('/dashboard/services');
    expect(window.localStorage.getItem(STORAGE_KEYS.selectedPlan)).toBeNull();
    expect(router.state.location.pathname).toBe(`/dashboard/payments/new/${ORDER_ID}/payment/complete`);
    // Done: no more polls.
    await nextPoll();
    expect(polls.count).toBe(3);
  });

  it.each([
    [
      'the message and JSON details with a message field',
      'Card declined',
      '{"message":"Do not honor","code":"05"}',
      'Card declined: Do not honor',
    ],
    [
      'a JSON string as details',
      'Card declined',
      '"Insufficient funds"',
      'Card declined: Insufficient funds',
    ],
    [
      'raw text details',
      'Card declined',
      'insufficient_funds (code 51)',
      'Card declined: insufficient_funds (code 51)',
    ],
    [
      'JSON without a message field, shown raw',
      'Card declined',
      '{"code":"05"}',
      'Card declined: {"code":"05"}',
    ],
    ['no message: the fallback', null, '{"message":"Expired card"}', 'Order processing failed: Expired card'],
    ['no message and no details', null, null, 'Order processing failed'],
    ['a message and no details', 'Card declined', null, 'Card declined'],
  ])('shows a failed order: %s', async (_name, message, details, expected) => {
    statuses(failedWith(message, details));
    renderApp(completePath);

    const text = await screen.findByTestId('completion-failed-message');
    expect(text.textContent).toBe(expected);
    expect(screen.getByTestId('completion-retry').getAttribute('href')).toBe(
      `/dashboard/payments/retry/${ORDER_ID}/payment`,
    );
  });

  it("says a declined card once: the heading says it failed, the text why, in the reader's language", async () => {
    // What the API stores for a declined card (payments.service.ts).
    statuses(failedWith('Payment failed', '{"code":"card_declined","message":"Your card was declined."}'));
    const view = renderApp(completePath);
    const failed = await screen.findByTestId('completion-failed');
    expect(failed.querySelector('h1')?.textContent).toBe('Payment failed');
    expect(screen.getByTestId('completion-failed-message').textContent).toBe(
      'The card was declined. Please try again.',
    );
    expect(failed.textContent?.match(/Payment failed/g)).toHaveLength(1);
    view.unmount();

    await changeLanguage('lt');
    renderApp(completePath);
    expect((await screen.findByTestId('completion-failed-message')).textContent).toBe(
      'Kortelė atmesta. Bandykite dar kartą.',
    );
  });

  it('times out when the order is still not complete after the limit', async () => {
    useSessionFakeTimers();
    const polls = statuses(pending);
    renderApp(`/dashboard/payments/retry/${ORDER_ID}/payment/complete?session_id=${SESSION_ID}`);
    await until(() => polls.count === 1, 'first poll');

    const pollsInLimit = Math.ceil(COMPLETION_TIMEOUT_MS / COMPLETION_POLL_MS);
    for (let round = 1; round < pollsInLimit; round += 1) await nextPoll();
    expect(shown('completion-timeout')).toBe(false);
    expect(shown('completion-processing')).toBe(true);
    await nextPoll();

    await until(() => shown('completion-timeout'), 'time-out');
    expect(screen.getByTestId('completion-timeout').textContent).toContain(
      'Order processing timed out. Please contact support.',
    );
    const count = polls.count;
    await nextPoll();
    expect(polls.count).toBe(count);
  });

  it('keeps polling through a passing server error', async () => {
    useSessionFakeTimers();
    let calls = 0;
    server.use(
      http.get(STATUS_PATH, () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ detail: 'server_error', message: 'Server error' }, { status: 500 })
          : HttpResponse.json(makeSessionStatus({ status: 'succeeded', order_status: 'PAID' }));
      }),
    );
    renderApp(`/dashboard/payments/new/complete?session_id=${SESSION_ID}`);
    await until(() => calls === 1, 'first poll');
    await nextPoll();
    await until(() => shown('completion-success'), 'success');
  });

  it('offers paying again when the session expired before payment', async () => {
    statuses(makeSessionStatus({ status: 'expired' }));
    renderApp(completePath);
    expect((await screen.findByTestId('completion-failed-message')).textContent).toBe(
      'The payment was not completed, and nothing was charged. You can pay again.',
    );
    expect(screen.getByTestId('completion-failed').querySelector('h1')?.textContent).toBe('Payment failed');
    expect(screen.getByTestId('completion-retry').getAttribute('href')).toBe(
      `/dashboard/payments/new/${ORDER_ID}/payment`,
    );
  });

  it('says so when the link has no session id, or an unknown one', async () => {
    const view = renderApp(`/dashboard/payments/new/${ORDER_ID}/payment/complete`);
    expect((await screen.findByTestId('payment-error')).textContent).toContain('session ID is missing');
    view.unmount();

    server.use(
      http.get(STATUS_PATH, () =>
        HttpResponse.json({ detail: 'not_found', message: 'Not found' }, { status: 404 }),
      ),
    );
    renderApp(completePath);
    expect((await screen.findByTestId('payment-error')).textContent).toContain('was not found');
  });

  it('words the plan-change and extension outcomes for their flow and links to the plans', async () => {
    statuses(failedWith('Card declined', null));
    const planChange = renderApp(
      `/dashboard/payments/plan-change/pc-1/payment/complete?session_id=${SESSION_ID}`,
    );
    expect((await screen.findByTestId('completion-failed')).querySelector('h1')?.textContent).toBe(
      'Plan change failed',
    );
    expect(screen.getByTestId('completion-plans-link').getAttribute('href')).toBe('/dashboard/plans');
    planChange.unmount();

    statuses(makeSessionStatus({ status: 'expired', order_status: 'AWAITING_PAYMENT' }));
    const unpaid = renderApp(
      `/dashboard/payments/plan-change/pc-1/payment/complete?session_id=${SESSION_ID}`,
    );
    expect((await screen.findByTestId('completion-retry')).getAttribute('href')).toBe(
      '/dashboard/payments/plan-change/pc-1/payment',
    );
    unpaid.unmount();

    statuses(failedWith(null, null));
    const extension = renderApp(`/dashboard/payments/extend/svc-1/payment/complete?session_id=${SESSION_ID}`);
    expect((await screen.findByTestId('completion-failed')).querySelector('h1')?.textContent).toBe(
      'Extension failed',
    );
    extension.unmount();

    statuses(makeSessionStatus({ status: 'succeeded', order_status: 'PAID' }));
    renderApp(`/dashboard/payments/extend/svc-1/payment/complete?session_id=${SESSION_ID}`);
    expect((await screen.findByTestId('completion-success')).textContent).toContain(
      'Your service has been extended.',
    );
    expect(screen.getByTestId('completion-plans-link')).toBeTruthy();
  });

  it('serves the plan-change and extension completion routes and Lithuanian texts', async () => {
    await changeLanguage('lt');
    statuses(makeSessionStatus({ status: 'succeeded', order_status: 'PAID' }));
    renderApp(`/dashboard/payments/extend/svc-1/payment/complete?session_id=${SESSION_ID}`);
    expect((await screen.findByTestId('completion-success')).textContent).toContain('Mokėjimas sėkmingas');
  });
});
