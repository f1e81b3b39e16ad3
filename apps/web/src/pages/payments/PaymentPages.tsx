// The pages that send a customer to pay (spec §2, §4 "Payment flows"):
//   /dashboard/payments/new/payment            — the stored selected plan: create the order, then pay;
//   /dashboard/payments/new/{orderId}/payment  — an order awaiting payment (after the pending-plan check);
//   /dashboard/payments/retry/{orderId}/payment — a FAILED order: show why, then retry.
// Plan changes and extensions have their own pages (PlanChangePaymentPage, ExtensionPaymentPage);
// all are built from the same parts (payment-parts.tsx).
// Paying opens a payment session (POST /orders/{id}/process or /retry-payment) and sends the
// browser to the provider's hosted card page; the provider returns to a completion page.
// Before a new workspace is paid for, the page asks whether a node has room for its disk now
// (GET /orders/capacity); when none has, it says so and offers both ways: pay and wait for room,
// or choose a smaller size (and the largest that fits now).
import type { TFunction } from 'i18next';
import type { CreateOrderRequest, Order } from '@debesis/contract';
import { skipToken, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import {
  createOrder,
  getOrderCapacity,
  paymentPagePaths,
  processOrder,
  retryOrderPayment,
} from '../../payments/payments-api.ts';
import { readSelectedPlan } from '../../plans/selected-plan-store.ts';
import { diskSize } from '../plans/format.ts';
import { useOrderQuote, useProducts } from '../plans/quote.ts';
import {
  Breakdown,
  FailureReason,
  Loading,
  openOrderPayment,
  OrderDone,
  orderLoadProblem,
  PageProblem,
  KeepCardField,
  PayButton,
  PaymentShell,
  Summary,
  useOrder,
  usePaymentStart,
  type SummaryFact,
} from './payment-parts.tsx';
import { WorkspaceNameField, workspaceNameOf } from './WorkspaceNameField.tsx';

type Translate = TFunction;

/** Whether a node could place a workspace of `diskSpace` GB now; null until asked or unanswered. */
function useCapacity(diskSpace: number | null) {
  const query = useQuery({
    queryKey: ['orders', 'capacity', diskSpace],
    queryFn: diskSpace === null ? skipToken : () => getOrderCapacity(diskSpace),
    retry: false,
    staleTime: 0,
  });
  return {
    /** No answer yet: paying waits for it, so the warning is never skipped by a quick click. */
    checking: diskSpace !== null && query.isPending && query.fetchStatus !== 'idle',
    full: query.data && !query.data.fits_now ? query.data : null,
  };
}

/**
 * No node has room for the disk now: paying is still possible, but the workspace waits for
 * room (tried again every 2 minutes; the waiting is added to its paid time). The other choice is
 * a smaller size, with the largest one that fits now.
 */
function CapacityNotice({
  capacity,
  smallerPath,
  keepsOrder,
}: {
  capacity: { disk_space: number; largest_disk_space: number };
  smallerPath: string;
  /** An order already exists: it stays open (cancel it from Services) if a smaller one is chosen. */
  keepsOrder: boolean;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (
    <div className="alert alert--warning payment__capacity" role="status" data-testid="payment-capacity">
      <p className="payment__capacity-title">
        {t('payment.capacity.title', { size: diskSize(capacity.disk_space, language) })}
      </p>
      <p>{t('payment.capacity.wait')}</p>
      <p data-testid="payment-capacity-smaller">
        {capacity.largest_disk_space > 0
          ? t('payment.capacity.largest', { size: diskSize(capacity.largest_disk_space, language) })
          : t('payment.capacity.none')}
        {keepsOrder && <> {t('payment.capacity.keepsOrder')}</>}
      </p>
      <Link to={smallerPath} className="btn btn--secondary" data-testid="payment-capacity-smaller-link">
        {t('payment.capacity.chooseSmaller')}
      </Link>
    </div>
  );
}

/** /dashboard/payments/new/payment: pays for the selected plan kept since the plan picker. */
export function NewPaymentPage() {
  const { t, i18n } = useTranslation();
  const [plan] = useState(readSelectedPlan);
  const [orderId, setOrderId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [keepCard, setKeepCard] = useState(false);
  const payment = usePaymentStart();
  const products = useProducts();
  const capacity = useCapacity(plan?.disk_space ?? null);
  const body: CreateOrderRequest | null = plan && {
    product_id: plan.product_id,
    disk_space: plan.disk_space,
    users_count: plan.users_count,
    period_id: plan.period_id,
    selected_options: plan.selected_options,
  };
  const quote = useOrderQuote('payment', body);

  if (!plan || !body) {
    return (
      <PaymentShell title={t('payment.newTitle')}>
        <PageProblem message={t('payment.noPlan')}>
          <Link to="/auth/plans" className="btn btn--primary">
            {t('payment.choosePlan')}
          </Link>
        </PageProblem>
      </PaymentShell>
    );
  }

  function pay(): void {
    if (!body) return;
    void payment.start(async () => {
      // An order created by an earlier attempt is paid, not created twice.
      let id = orderId;
      if (id === null) {
        id = (await createOrder({ ...body, ...workspaceNameOf(name) })).id;
        setOrderId(id);
      }
      return processOrder(id, { ...workspaceNameOf(name), save_payment_method: keepCard });
    }, t('payment.initFailed'));
  }

  const total = quote.data?.total ?? plan.initial_calculation.total;
  return (
    <PaymentShell title={t('payment.newTitle')}>
      <div className="payment__grid">
        <div>
          <Summary
            facts={configurationFacts(
              {
                // The stored name is the spec's English sentence; the plan's own name reads in any language.
                plan:
                  products.data?.find((product) => product.id === plan.product_id)?.name ?? plan.product_name,
                disk_space: plan.disk_space,
                users_count: plan.users_count,
                // The quote names the period in the reader's language; until it arrives, the stored name.
                period: quote.data ? t('planPicker.months', { count: quote.data.months }) : plan.period_name,
              },
              t,
              i18n.language,
            )}
            total={total}
            note={quote.data ? undefined : t('payment.estimate')}
          />
          <WorkspaceNameField value={name} onChange={setName} />
          <KeepCardField checked={keepCard} onChange={setKeepCard} />
          {capacity.full && (
            <CapacityNotice capacity={capacity.full} smallerPath="/auth/plans" keepsOrder={false} />
          )}
          {payment.error && <PageProblem message={payment.error} />}
          <PayButton
            onClick={pay}
            busy={payment.busy}
            disabled={capacity.checking}
            label={capacity.full ? t('payment.capacity.payAndWait') : t('payment.pay')}
          />
        </div>
        {quote.data && <Breakdown breakdown={quote.data} />}
      </div>
    </PaymentShell>
  );
}

/** The whole configuration the customer is about to pay for: plan, disk, users and period. */
function configurationFacts(
  configuration: { plan: string; disk_space: number; users_count: number; period: string },
  t: Translate,
  language: string,
): SummaryFact[] {
  return [
    { label: t('payment.plan'), value: configuration.plan, testId: 'payment-fact-plan' },
    {
      label: t('payment.disk'),
      value: diskSize(configuration.disk_space, language),
      testId: 'payment-fact-disk',
    },
    { label: t('payment.users'), value: String(configuration.users_count), testId: 'payment-fact-users' },
    { label: t('payment.period'), value: configuration.period, testId: 'payment-fact-period' },
  ];
}

/** What a new workspace is called once paid (as the fulfilment names it). */
function workspaceDefaultName(order: Order): string {
  return `${order.product_name} ${order.id.slice(0, 8)}`;
}

function orderFacts(order: Order, t: Translate, language: string): SummaryFact[] {
  return configurationFacts(
    {
      plan: order.product_name,
      disk_space: order.disk_space,
      users_count: order.users_count,
      period: t('planPicker.months', { count: order.breakdown.months }),
    },
    t,
    language,
  );
}

function OrderLoader({
  title,
  render,
}: {
  title: string;
  render: (order: Order, reload: () => void) => ReactNode;
}) {
  const { t } = useTranslation();
  const { orderId } = useParams();
  const order = useOrder(orderId);
  let content: ReactNode;
  if (!orderId) content = <PageProblem message={t('payment.orderIdMissing')} />;
  else if (order.isPending) content = <Loading text={t('payment.loading')} />;
  else if (order.isError)
    content = (
      <PageProblem message={orderLoadProblem(order.error, t)}>
        <button type="button" className="btn btn--secondary" onClick={() => void order.refetch()}>
          {t('payment.tryAgain')}
        </button>
        <Link to="/dashboard/services" className="btn btn--ghost">
          {t('payment.toServices')}
        </Link>
      </PageProblem>
    );
  else content = render(order.data, () => void order.refetch());
  return <PaymentShell title={title}>{content}</PaymentShell>;
}

function PayOrder({ order, reload }: { order: Order; reload: () => void }) {
  const { t, i18n } = useTranslation();
  const payment = usePaymentStart();
  const [name, setName] = useState(order.service_name ?? '');
  const [keepCard, setKeepCard] = useState(false);
  // Only a new workspace needs a place; an extension's already has one.
  const capacity = useCapacity(
    order.kind === 'new' && order.status === 'AWAITING_PAYMENT' ? order.disk_space : null,
  );
  if (order.plan_change_id)
    return <Navigate to={paymentPagePaths.planChange(order.plan_change_id)} replace />;
  if (order.status === 'FAILED') return <Navigate to={paymentPagePaths.retry(order.id)} replace />;
  if (order.status !== 'AWAITING_PAYMENT') return <OrderDone order={order} />;
  return (
    <div className="payment__grid">
      <div>
        <Summary facts={orderFacts(order, t, i18n.language)} total={order.amount} />
        {order.kind === 'new' && (
          <WorkspaceNameField value={name} onChange={setName} defaultName={workspaceDefaultName(order)} />
        )}
        <KeepCardField checked={keepCard} onChange={setKeepCard} />
        {capacity.full && <CapacityNotice capacity={capacity.full} smallerPath="/auth/plans" keepsOrder />}
        {payment.error && <PageProblem message={payment.error} />}
        <PayButton
          // Paid or being paid meanwhile (409): show what the order is now.
          onClick={() =>
            void payment.start(
              openOrderPayment(order.id, reload, { ...workspaceNameOf(name), save_payment_method: keepCard }),
              t('payment.initFailed'),
            )
          }
          busy={payment.busy}
          disabled={capacity.checking}
          label={capacity.full ? t('payment.capacity.payAndWait') : t('payment.pay')}
        />
      </div>
      <Breakdown breakdown={order.breakdown} />
    </div>
  );
}

/** /dashboard/payments/new/{orderId}/payment */
export function OrderPaymentPage() {
  const { t } = useTranslation();
  return (
    <OrderLoader
      title={t('payment.orderTitle')}
      render={(order, reload) => <PayOrder order={order} reload={reload} />}
    />
  );
}

function RetryOrder({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const payment = usePaymentStart();
  const capacity = useCapacity(order.kind === 'new' && order.status === 'FAILED' ? order.disk_space : null);
  // A plan change's order is paid (and retried) on its own page, which shows what changes.
  if (order.plan_change_id)
    return <Navigate to={paymentPagePaths.planChange(order.plan_change_id)} replace />;
  if (order.status === 'AWAITING_PAYMENT') return <Navigate to={paymentPagePaths.order(order.id)} replace />;
  if (order.status !== 'FAILED') return <OrderDone order={order} />;
  return (
    <div className="payment__grid">
      <div>
        <FailureReason order={order} />
        <Summary
          facts={[
            // The name given at checkout is kept through the failed attempt: say which workspace this is.
            ...(order.kind === 'new'
              ? [
                  {
                    label: t('payment.workspaceName'),
                    value: order.service_name ?? workspaceDefaultName(order),
                    testId: 'payment-fact-name',
                  },
                ]
              : []),
            ...orderFacts(order, t, i18n.language),
          ]}
          total={order.amount}
        />
        {capacity.full && <CapacityNotice capacity={capacity.full} smallerPath="/auth/plans" keepsOrder />}
        {payment.error && <PageProblem message={payment.error} />}
        <PayButton
          onClick={() => void payment.start(() => retryOrderPayment(order.id), t('payment.retryFailed'))}
          busy={payment.busy}
          disabled={capacity.checking}
          label={capacity.full ? t('payment.capacity.payAndWait') : t('payment.retry')}
          testId="payment-retry"
        />
      </div>
      <Breakdown breakdown={order.breakdown} />
    </div>
  );
}

/** /dashboard/payments/retry/{orderId}/payment */
export function RetryPaymentPage() {
  const { t } = useTranslation();
  return <OrderLoader title={t('payment.retryTitle')} render={(order) => <RetryOrder order={order} />} />;
}
