// The payment-completion pages (spec §2: no sign-in needed), where the provider returns with
// ?session_id=…: /dashboard/payments/new/complete, …/new/{orderId}/payment/complete,
// …/retry/{orderId}/payment/complete and the plan-change and extension ones. They poll
// GET /payments/session/{id}/status every COMPLETION_POLL_MS until the order is complete:
// processing → success (PAID) | failed (FAILED or CANCELLED) | timed out (COMPLETION_TIMEOUT_MS).
// The route says which flow returned (a plan change, an extension, else a purchase or retry), and
// the outcome is worded and linked for it (spec §8 "plan change failed", "extension failed").
import type { TFunction } from 'i18next';
import { paymentSessionParamsSchema, STORAGE_KEYS, type PaymentSessionStatus } from '@debesis/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import '../../i18n/orders-messages.ts';
import { removeStorage } from '../../lib/storage.ts';
import { notifyInBrowser } from '../../notifications/browser-notifications.ts';
import { declinedReason, failureMessage } from '../../payments/failure-message.ts';
import {
  COMPLETION_POLL_MS,
  COMPLETION_TIMEOUT_MS,
  getPaymentSessionStatus,
  paymentPagePaths,
} from '../../payments/payments-api.ts';
import './payments.css';

export type Completion =
  | { phase: 'processing' }
  | { phase: 'success'; status: PaymentSessionStatus }
  | { phase: 'failed'; status: PaymentSessionStatus }
  | { phase: 'timeout' }
  | { phase: 'invalid'; reason: 'sessionMissing' | 'sessionNotFound' };

function validSessionId(value: string | null): string | null {
  return value !== null && paymentSessionParamsSchema.safeParse({ id: value }).success ? value : null;
}

function outcome(status: PaymentSessionStatus): Completion | null {
  if (status.order_status === 'PAID') return { phase: 'success', status };
  if (status.order_status === 'FAILED' || status.order_status === 'CANCELLED')
    return { phase: 'failed', status };
  // The session ran out before the card was paid: the order still waits and can be paid again.
  if (status.status === 'expired') return { phase: 'failed', status };
  return null;
}

export function usePaymentCompletion(sessionId: string | null): Completion {
  const [state, setState] = useState<Completion>(() =>
    sessionId === null ? { phase: 'invalid', reason: 'sessionMissing' } : { phase: 'processing' },
  );
  useEffect(() => {
    if (sessionId === null) return undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const startedAt = Date.now();

    function next(): void {
      if (Date.now() - startedAt >= COMPLETION_TIMEOUT_MS) setState({ phase: 'timeout' });
      else timer = setTimeout(() => void poll(), COMPLETION_POLL_MS);
    }

    async function poll(): Promise<void> {
      try {
        const status = await getPaymentSessionStatus(sessionId ?? '');
        if (stopped) return;
        const done = outcome(status);
        if (done) setState(done);
        else next();
      } catch (error) {
        if (stopped) return;
        if (isApiError(error) && error.status === 404)
          setState({ phase: 'invalid', reason: 'sessionNotFound' });
        // Anything else (network, 5xx) may pass: ask again until the time-out.
        else next();
      }
    }

    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [sessionId]);

  useEffect(() => {
    // Paid: the plan chosen for it is done with.
    if (state.phase === 'success') removeStorage(STORAGE_KEYS.selectedPlan);
  }, [state.phase]);
  return state;
}

type Translate = TFunction;

/** How each flow words its outcome and where it leads next. */
function flowTexts(flow: 'purchase' | 'planChange' | 'extension', t: Translate) {
  switch (flow) {
    case 'purchase':
      return {
        failed: t('completion.paymentFailedTitle'),
        successBody: t('completion.successBody'),
        plansLink: false,
      };
    case 'planChange':
      return {
        failed: t('completion.planChangeFailed'),
        successBody: t('completion.planChangeSuccessBody'),
        plansLink: true,
      };
    case 'extension':
      return {
        failed: t('completion.extensionFailed'),
        successBody: t('completion.extensionSuccessBody'),
        plansLink: true,
      };
  }
}

/**
 * What the failed outcome says under its heading (which already says it failed): an unpaid order
 * was simply not paid; a known card reason in the reader's language; else the spec's failed-order
 * text (error_message or 'Order processing failed', then the details).
 */
function failedText(status: PaymentSessionStatus, t: Translate, exists: (key: string) => boolean): string {
  if (status.order_status === 'AWAITING_PAYMENT') return t('completion.notCompleted');
  const reason = declinedReason(status.error_details, t, exists);
  if (reason !== null) return `${reason} ${t('completion.tryAgain')}`;
  return failureMessage(status.error_message, status.error_details, t('completion.orderFailed'));
}

export function PaymentCompletePage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('completion.title'));
  const [params] = useSearchParams();
  const { planChangeId, serviceId } = useParams();
  const state = usePaymentCompletion(validSessionId(params.get('session_id')));
  useEffect(() => {
    // The customer may have left this tab while the payment was confirmed.
    if (state.phase === 'success')
      notifyInBrowser(
        t('browserNotifications.paymentTitle'),
        t('browserNotifications.paymentBody'),
        `payment:${state.status.order_id}`,
      );
  }, [state, t]);
  const flow = flowTexts(planChangeId ? 'planChange' : serviceId ? 'extension' : 'purchase', t);
  /** An order the customer left unpaid is paid again on its flow's page. */
  const payAgainPath = (orderId: string) =>
    planChangeId ? paymentPagePaths.planChange(planChangeId) : paymentPagePaths.order(orderId);
  // The ways on: the plans (after a plan change or an extension) and the services. The first one
  // offered is the primary button after a success; after a failure, trying again is.
  const plansLink = (primary: boolean) =>
    flow.plansLink && (
      <Link
        to="/dashboard/plans"
        className={primary ? 'btn btn--primary' : 'btn btn--ghost'}
        data-testid="completion-plans-link"
      >
        {t('completion.plansLink')}
      </Link>
    );
  const servicesLink = (primary: boolean) => (
    <Link
      to="/dashboard/services"
      className={primary ? 'btn btn--primary' : 'btn btn--ghost'}
      data-testid="completion-services-link"
    >
      {t('completion.servicesLink')}
    </Link>
  );

  return (
    <div className="payment payment--complete container">
      <section className="card payment__outcome" aria-live="polite">
        {state.phase === 'processing' && (
          <div role="status" data-testid="completion-processing">
            <span className="payment__spinner" aria-hidden="true" />
            <h1>{t('completion.processing')}</h1>
            <p className="text-muted">{t('completion.processingBody')}</p>
          </div>
        )}
        {state.phase === 'success' && (
          <div data-testid="completion-success">
            <h1>{t('completion.success')}</h1>
            <p>{flow.successBody}</p>
            <div className="button-row">
              {plansLink(true)}
              {servicesLink(!flow.plansLink)}
            </div>
          </div>
        )}
        {state.phase === 'failed' && (
          <div data-testid="completion-failed">
            <h1>{flow.failed}</h1>
            <FormAlert tone="error" testId="completion-failed-message">
              {failedText(state.status, t, (key) => i18n.exists(key))}
            </FormAlert>
            <div className="button-row">
              {state.status.order_status === 'FAILED' && (
                <Link
                  to={paymentPagePaths.retry(state.status.order_id)}
                  className="btn btn--primary"
                  data-testid="completion-retry"
                >
                  {t('completion.retry')}
                </Link>
              )}
              {state.status.order_status === 'AWAITING_PAYMENT' && (
                <Link
                  to={payAgainPath(state.status.order_id)}
                  className="btn btn--primary"
                  data-testid="completion-retry"
                >
                  {t('completion.payAgain')}
                </Link>
              )}
              {plansLink(false)}
              {servicesLink(false)}
            </div>
          </div>
        )}
        {state.phase === 'timeout' && (
          <div data-testid="completion-timeout">
            <FormAlert tone="warning">{t('completion.timeout')}</FormAlert>
            {servicesLink(false)}
          </div>
        )}
        {state.phase === 'invalid' && (
          <FormAlert tone="error" testId="payment-error">
            {t(`completion.${state.reason}`)}
          </FormAlert>
        )}
      </section>
    </div>
  );
}
