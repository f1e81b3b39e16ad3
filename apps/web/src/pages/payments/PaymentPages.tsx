// The pages that send a customer to pay (spec §2, §4 "Payment flows"):
//   /dashboard/payments/new/payment            — the stored selected plan: create the order, then pay;
//   /dashboard/payments/new/{orderId}/payment  — an order awaiting payment (after the pending-plan check);
//   /dashboard/payments/retry/{orderId}/payment — a FAILED order: show why, then retry.
// Paying opens a payment session (POST /orders/{id}/process or /retry-payment) and sends the
// browser to the provider's hosted card page; the provider returns to a completion page.
import {
  priceBreakdownSchema,
  type CreateOrderRequest,
  type Order,
  type PriceBreakdownResponse,
} from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { api, isApiError } from '../../api/client.ts';
import { useSession } from '../../auth/session.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import '../../i18n/orders-messages.ts';
import '../../i18n/plans-messages.ts';
import { failureMessage } from '../../payments/failure-message.ts';
import {
  createOrder,
  getOrder,
  paymentPagePaths,
  processOrder,
  providerNavigation,
  retryOrderPayment,
} from '../../payments/payments-api.ts';
import { readSelectedPlan } from '../../plans/selected-plan-store.ts';
import { countryName, money } from '../plans/format.ts';
import { PriceBreakdownView } from '../plans/PriceBreakdownView.tsx';
import { CALCULATE_PRICE_PATH, useVatCustomer } from '../plans/quote.ts';
import './payments.css';

function PaymentShell({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <div className="payment">
      <header className="page-header">
        <h1>{title}</h1>
      </header>
      {children}
    </div>
  );
}

function Summary({
  plan,
  period,
  total,
  note,
}: {
  plan: string;
  period: string;
  total: number;
  note?: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <section className="card payment__summary" aria-labelledby="payment-summary-title">
      <h2 id="payment-summary-title" className="payment__summary-title">
        {t('payment.summary')}
      </h2>
      <dl className="payment__facts" data-testid="payment-summary">
        <div>
          <dt>{t('payment.plan')}</dt>
          <dd>{plan}</dd>
        </div>
        <div>
          <dt>{t('payment.period')}</dt>
          <dd>{period}</dd>
        </div>
        <div className="payment__total">
          <dt>{t('payment.total')}</dt>
          <dd data-testid="payment-total">{money(total, i18n.language)}</dd>
        </div>
      </dl>
      {note && <p className="text-muted payment__note">{note}</p>}
    </section>
  );
}

function Breakdown({ breakdown, checking }: { breakdown: PriceBreakdownResponse; checking?: boolean }) {
  const { i18n } = useTranslation();
  const { user } = useSession();
  const country = user?.country && /^[A-Za-z]{2}$/.test(user.country) ? user.country.toUpperCase() : null;
  return (
    <PriceBreakdownView
      breakdown={breakdown}
      status={checking ? 'checking' : 'confirmed'}
      country={country ? countryName(country, i18n.language) : null}
    />
  );
}

/** Runs one payment start (order → session → provider page), with its in-flight and error state. */
function usePaymentStart() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function start(openSession: () => Promise<{ url: string }>, fallback: string): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      const session = await openSession();
      providerNavigation.open(session.url);
      // The browser is leaving; the button stays busy until it has.
    } catch (caught) {
      setBusy(false);
      setError(isApiError(caught) && caught.status >= 400 && caught.status < 500 ? caught.message : fallback);
    }
  }
  return { busy, error, start };
}

function PayButton({
  onClick,
  busy,
  label,
  testId = 'payment-pay',
}: {
  onClick: () => void;
  busy: boolean;
  label: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="payment__actions">
      <button
        type="button"
        className="btn btn--primary btn--lg"
        onClick={onClick}
        disabled={busy}
        aria-busy={busy}
        data-testid={testId}
      >
        {busy ? t('payment.paying') : label}
      </button>
      <p className="text-muted payment__note">{t('payment.payNote')}</p>
    </div>
  );
}

function PageProblem({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <>
      <FormAlert tone="error" testId="payment-error">
        {message}
      </FormAlert>
      {children && <div className="button-row payment__links">{children}</div>}
    </>
  );
}

/** /dashboard/payments/new/payment: pays for the selected plan kept since the plan picker. */
export function NewPaymentPage() {
  const { t } = useTranslation();
  const [plan] = useState(readSelectedPlan);
  const { customer, settled } = useVatCustomer();
  const [orderId, setOrderId] = useState<string | null>(null);
  const payment = usePaymentStart();
  const body: CreateOrderRequest | null = plan && {
    product_id: plan.product_id,
    disk_space: plan.disk_space,
    users_count: plan.users_count,
    period_id: plan.period_id,
    selected_options: plan.selected_options,
  };
  const quote = useQuery({
    queryKey: ['price-quote', 'payment', body, customer],
    queryFn: () =>
      api.post(
        CALCULATE_PRICE_PATH,
        {
          ...body,
          ...(customer?.isBusiness && customer.vatNumber ? { vat_number: customer.vatNumber } : {}),
        },
        priceBreakdownSchema,
        {
          params: customer
            ? { country: customer.country, is_business: customer.isBusiness }
            : { is_business: false },
        },
      ),
    enabled: body !== null && settled,
    retry: false,
  });

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
        id = (await createOrder(body)).id;
        setOrderId(id);
      }
      return processOrder(id);
    }, t('payment.initFailed'));
  }

  const total = quote.data?.total ?? plan.initial_calculation.total;
  return (
    <PaymentShell title={t('payment.newTitle')}>
      <div className="payment__grid">
        <div>
          <Summary
            plan={plan.product_name}
            period={plan.period_name}
            total={total}
            note={quote.data ? undefined : t('payment.estimate')}
          />
          {payment.error && <PageProblem message={payment.error} />}
          <PayButton onClick={pay} busy={payment.busy} label={t('payment.pay')} />
        </div>
        {quote.data && <Breakdown breakdown={quote.data} />}
      </div>
    </PaymentShell>
  );
}

function useOrder(orderId: string | undefined) {
  return useQuery({
    queryKey: ['orders', orderId],
    queryFn: () => getOrder(orderId ?? ''),
    enabled: Boolean(orderId),
    retry: false,
    staleTime: 0,
  });
}

function orderLoadProblem(error: unknown, t: ReturnType<typeof useTranslation>['t']): string {
  return isApiError(error) && error.status === 404
    ? t('payment.orderNotFound')
    : t('payment.orderLoadFailed');
}

function periodText(order: Order, t: ReturnType<typeof useTranslation>['t']): string {
  return t('planPicker.months', { count: order.breakdown.months });
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
  else if (order.isPending)
    content = (
      <p className="text-muted" role="status">
        {t('payment.loading')}
      </p>
    );
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

function OrderDone({ order }: { order: Order }) {
  const { t } = useTranslation();
  return (
    <>
      <FormAlert tone={order.status === 'PAID' ? 'success' : 'info'} testId="payment-error">
        {order.status === 'PAID' ? t('payment.alreadyPaid') : t('payment.notPayable')}
      </FormAlert>
      <div className="button-row payment__links">
        <Link to="/dashboard/services" className="btn btn--primary">
          {t('payment.toServices')}
        </Link>
      </div>
    </>
  );
}

function PayOrder({ order, reload }: { order: Order; reload: () => void }) {
  const { t } = useTranslation();
  const payment = usePaymentStart();
  if (order.status === 'FAILED') return <Navigate to={paymentPagePaths.retry(order.id)} replace />;
  if (order.status !== 'AWAITING_PAYMENT') return <OrderDone order={order} />;
  return (
    <div className="payment__grid">
      <div>
        <Summary plan={order.product_name} period={periodText(order, t)} total={order.amount} />
        {payment.error && <PageProblem message={payment.error} />}
        <PayButton
          onClick={() =>
            void payment.start(async () => {
              try {
                return await processOrder(order.id);
              } catch (error) {
                // Paid or being paid meanwhile: show what the order is now.
                if (isApiError(error) && error.status === 409) reload();
                throw error;
              }
            }, t('payment.initFailed'))
          }
          busy={payment.busy}
          label={t('payment.pay')}
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
  const { t } = useTranslation();
  const payment = usePaymentStart();
  if (order.status === 'AWAITING_PAYMENT') return <Navigate to={paymentPagePaths.order(order.id)} replace />;
  if (order.status !== 'FAILED') return <OrderDone order={order} />;
  return (
    <div className="payment__grid">
      <div>
        <FormAlert tone="warning" testId="payment-failure-reason">
          {t('payment.failedReason')}{' '}
          {failureMessage(order.error_message, order.error_details, t('completion.orderFailed'))}
        </FormAlert>
        <Summary plan={order.product_name} period={periodText(order, t)} total={order.amount} />
        {payment.error && <PageProblem message={payment.error} />}
        <PayButton
          onClick={() => void payment.start(() => retryOrderPayment(order.id), t('payment.retryFailed'))}
          busy={payment.busy}
          label={t('payment.retry')}
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
