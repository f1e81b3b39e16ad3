// /dashboard/payments/plan-change/{planChangeId}/payment (spec §2, §4 "Payment flows"): pays an
// upgrade. Shows the change (from → to, the days it covers, the prorated price) with the exact
// amounts of its order (credit used, VAT, total), then opens the payment. A FAILED order shows
// why and retries; an applied change or one a newer change replaced needs no payment.
import type { Order, PlanChange } from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import '../../i18n/plan-changes-messages.ts';
import { getPlanChange } from '../../payments/plan-changes-api.ts';
import { retryOrderPayment } from '../../payments/payments-api.ts';
import { PlanChangeBreakdown } from '../plan-changes/PlanChangeBreakdown.tsx';
import { configurationText, planChangePath } from '../plan-changes/plan-facts.ts';
import { formatDate } from '../plans/format.ts';
import '../plans/plans.css';
import '../plan-changes/plan-changes.css';
import {
  FailureReason,
  Loading,
  openOrderPayment,
  OrderDone,
  orderLoadProblem,
  PageNotice,
  PageProblem,
  PayButton,
  PaymentShell,
  Summary,
  useOrder,
  usePaymentStart,
} from './payment-parts.tsx';

function PlansLink() {
  const { t } = useTranslation();
  return (
    <Link to="/dashboard/plans" className="btn btn--primary" data-testid="payment-plans-link">
      {t('planFacts.toPlans')}
    </Link>
  );
}

function PayPlanChange({ change, order, reload }: { change: PlanChange; order: Order; reload: () => void }) {
  const { t, i18n } = useTranslation();
  const payment = usePaymentStart();
  const failed = order.status === 'FAILED';
  if (order.status !== 'AWAITING_PAYMENT' && !failed)
    return (
      <OrderDone order={order}>
        <PlansLink />
      </OrderDone>
    );
  const describe = (side: PlanChange['current']) =>
    configurationText(t, i18n.language, {
      plan: side.product_name,
      disk_space: side.disk_space,
      users_count: side.users_count,
    });
  // The order holds what is really charged: the credit free when it was placed, and its VAT.
  const figures = {
    ...change,
    charge: {
      ...change.charge,
      subtotal: order.breakdown.subtotal,
      credit_applied: order.credit_applied,
      vat_rate: order.breakdown.vat_rate,
      vat_amount: order.breakdown.vat_amount,
      total: order.amount,
      reverse_charge: order.breakdown.reverse_charge,
      outside_scope: order.breakdown.outside_scope,
    },
  };
  return (
    <div className="payment__grid">
      <div>
        {failed && <FailureReason order={order} />}
        <Summary
          title={t('planChangePayment.summaryTitle')}
          facts={[
            { label: t('planChangePayment.from'), value: describe(change.current), testId: 'payment-from' },
            { label: t('planChangePayment.to'), value: describe(change.target), testId: 'payment-to' },
            {
              label: t('planChangePayment.until'),
              value: formatDate(change.valid_until, i18n.language),
            },
          ]}
          total={order.amount}
        />
        {payment.error && <PageProblem message={payment.error} />}
        {failed ? (
          <PayButton
            onClick={() => void payment.start(() => retryOrderPayment(order.id), t('payment.retryFailed'))}
            busy={payment.busy}
            label={t('payment.retry')}
            testId="payment-retry"
          />
        ) : (
          <PayButton
            // Paid or being paid meanwhile (409): show what the order is now.
            onClick={() => void payment.start(openOrderPayment(order.id, reload), t('payment.initFailed'))}
            busy={payment.busy}
            label={t('payment.pay')}
            coveredByCredit={order.amount === 0}
          />
        )}
      </div>
      <section className="card breakdown" aria-labelledby="plan-change-price-title">
        <h2 id="plan-change-price-title" className="breakdown__title">
          {t('planChange.quoteTitle')}
        </h2>
        <div className="plan-change__figures">
          <PlanChangeBreakdown figures={figures} />
        </div>
      </section>
    </div>
  );
}

function PlanChangeOrder({ change }: { change: PlanChange }) {
  const { t } = useTranslation();
  const order = useOrder(change.order_id);
  if (order.isPending) return <Loading text={t('payment.loading')} />;
  if (order.isError)
    return (
      <PageProblem message={orderLoadProblem(order.error, t)}>
        <button type="button" className="btn btn--secondary" onClick={() => void order.refetch()}>
          {t('payment.tryAgain')}
        </button>
      </PageProblem>
    );
  return <PayPlanChange change={change} order={order.data} reload={() => void order.refetch()} />;
}

function PlanChangeState({ change }: { change: PlanChange }) {
  const { t } = useTranslation();
  switch (change.status) {
    case 'applied':
      return (
        <PageNotice tone="success" message={t('planChangePayment.applied')}>
          <PlansLink />
        </PageNotice>
      );
    case 'awaiting_room':
      return (
        <PageNotice tone="info" message={t('planChangePayment.awaitingRoom')}>
          <PlansLink />
        </PageNotice>
      );
    case 'cancelled':
      return (
        <PageNotice tone="info" message={t('planChangePayment.cancelled')}>
          <Link
            to={planChangePath(change.service_id)}
            className="btn btn--primary"
            data-testid="payment-change-again"
          >
            {t('planChangePayment.changeAgain')}
          </Link>
          <Link to="/dashboard/plans" className="btn btn--ghost">
            {t('planFacts.toPlans')}
          </Link>
        </PageNotice>
      );
    case 'awaiting_payment':
      return change.order_id ? (
        <PlanChangeOrder change={change} />
      ) : (
        <PageProblem message={t('planChangePayment.notFound')} />
      );
  }
}

/** /dashboard/payments/plan-change/{planChangeId}/payment */
export function PlanChangePaymentPage() {
  const { t } = useTranslation();
  const { planChangeId } = useParams();
  const change = useQuery({
    queryKey: ['plan-changes', planChangeId],
    queryFn: () => getPlanChange(planChangeId ?? ''),
    enabled: Boolean(planChangeId),
    retry: false,
    staleTime: 0,
  });
  let content: ReactNode;
  if (!planChangeId) content = <PageProblem message={t('planChangePayment.notFound')} />;
  else if (change.isPending) content = <Loading text={t('planChangePayment.loading')} />;
  else if (change.isError)
    content =
      // Another account's change, or none: 404 (an id that is not a uuid is refused as invalid).
      isApiError(change.error) && (change.error.status === 404 || change.error.status === 422) ? (
        <PageProblem message={t('planChangePayment.notFound')}>
          <PlansLink />
        </PageProblem>
      ) : (
        <PageProblem message={t('planChangePayment.loadFailed')}>
          <button type="button" className="btn btn--secondary" onClick={() => void change.refetch()}>
            {t('payment.tryAgain')}
          </button>
        </PageProblem>
      );
  else content = <PlanChangeState change={change.data} />;
  return <PaymentShell title={t('planChangePayment.title')}>{content}</PaymentShell>;
}
