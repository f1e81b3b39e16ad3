// /dashboard/payments/extend/{serviceId}/payment (spec §2, §4 "Payment flows", §5: an extension
// needs the service and a valid expiration date): choose a billing period of the service's plan,
// see its price for the service's disk and users (with VAT and the account credit, which is used
// first) and the new paid-until date, then pay: POST /orders/service/{id}/extend, then the order's
// payment. When the credit pays it all, the browser goes straight to the completion page.
import type { ProductConfig, ServiceSummary } from '@debesis/contract';
import { addMonths, applyCredit } from '@debesis/pricing';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import '../../i18n/plan-changes-messages.ts';
import { freeCredit, useAccountCredit } from '../../payments/plan-changes-api.ts';
import { extendService, processOrder } from '../../payments/payments-api.ts';
import { findService, useServicesOverview, validUntilOf } from '../../services/services-api.ts';
import { configurationText } from '../plan-changes/plan-facts.ts';
import { formatDate, money } from '../plans/format.ts';
import { PeriodChoice } from '../plans/PlanFields.tsx';
import { useOrderQuote, useProductConfig } from '../plans/quote.ts';
import '../plans/plans.css';
import {
  Breakdown,
  Loading,
  PageProblem,
  KeepCardField,
  PayButton,
  PaymentShell,
  Summary,
  usePaymentStart,
} from './payment-parts.tsx';

/** Where the new period ends (the API's own month rule): after the paid time, or after today when that has ended. */
export function newValidUntil(validUntil: Date, months: number, now: Date): Date {
  return addMonths(validUntil > now ? validUntil : now, months);
}

function PlansLink() {
  const { t } = useTranslation();
  return (
    <Link to="/dashboard/plans" className="btn btn--ghost">
      {t('planFacts.toPlans')}
    </Link>
  );
}

function ExtendService({
  service,
  validUntil,
  config,
}: {
  service: ServiceSummary;
  validUntil: Date;
  config: ProductConfig;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const periods = config.periods;
  const [periodId, setPeriodId] = useState(() =>
    periods.some((period) => period.id === service.period_id)
      ? service.period_id
      : (config.default_period_id ?? periods[0]?.id ?? ''),
  );
  const period = periods.find((candidate) => candidate.id === periodId) ?? null;
  const credit = useAccountCredit();
  // The order made by an earlier attempt on this page is paid, not made twice (per period).
  const [placed, setPlaced] = useState<{ periodId: string; orderId: string } | null>(null);
  const payment = usePaymentStart();
  const [keepCard, setKeepCard] = useState(false);
  // "Today" for the preview, fixed while the page is open.
  const [now] = useState(() => new Date());

  const body = period && {
    product_id: service.product_id,
    disk_space: service.disk_space,
    users_count: service.users_total,
    period_id: period.id,
  };
  const quote = useOrderQuote('extension', body);
  // The order takes the account's free credit off before VAT, as here (the same function).
  const available = freeCredit(credit.data);
  const priced = quote.data ? applyCredit(quote.data, credit.isSuccess ? available : 0) : null;
  const until = period ? newValidUntil(validUntil, period.months, now) : null;
  const lapsed = validUntil <= now;

  function pay(): void {
    if (!period) return;
    void payment.start(async () => {
      let orderId = placed?.periodId === period.id ? placed.orderId : null;
      if (orderId === null) {
        orderId = (await extendService(service.id, period.id)).id;
        setPlaced({ periodId: period.id, orderId });
      }
      return processOrder(orderId, { save_payment_method: keepCard });
    }, t('payment.initFailed'));
  }

  const covered = priced !== null && priced.total === 0 && (priced.credit_applied ?? 0) > 0;
  let note: string | undefined;
  if (quote.isError) note = t('extension.priceFailed');
  else if (!priced) note = t('extension.priceChecking');
  else if (priced.credit_applied > 0)
    // The balance the customer has, and how much of it this payment takes (not one for the other).
    note = t('extension.creditNote', {
      balance: money(available, language),
      used: money(priced.credit_applied, language),
    });

  return (
    <div className="payment__grid">
      <div>
        <div className="card payment__periods">
          <PeriodChoice idPrefix="extension" periods={periods} value={periodId} onChange={setPeriodId} />
        </div>
        <Summary
          title={t('extension.summaryTitle')}
          facts={[
            { label: t('extension.service'), value: service.name },
            {
              label: t('planFacts.plan'),
              value: configurationText(t, language, {
                plan: service.plan,
                disk_space: service.disk_space,
                users_count: service.users_total,
              }),
            },
            {
              label: t('extension.validUntil'),
              value: formatDate(validUntil, language),
              testId: 'extension-valid-until',
            },
            {
              label: t('extension.newValidUntil'),
              value: until ? formatDate(until, language) : '—',
              testId: 'extension-new-valid-until',
            },
          ]}
          total={priced?.total ?? null}
          note={note}
        />
        {lapsed && (
          <p className="text-muted payment__note" data-testid="extension-lapsed">
            {t('extension.expiredNote')}
          </p>
        )}
        {!covered && <KeepCardField checked={keepCard} onChange={setKeepCard} />}
        {payment.error && <PageProblem message={payment.error} />}
        <PayButton
          onClick={pay}
          busy={payment.busy}
          disabled={!period}
          label={t('extension.pay')}
          coveredByCredit={covered}
        />
      </div>
      <div aria-live="polite">{priced && <Breakdown breakdown={priced} checking={quote.isFetching} />}</div>
    </div>
  );
}

/** The service's billing periods, from its product's configuration. */
function ExtensionPeriods({ service, validUntil }: { service: ServiceSummary; validUntil: Date }) {
  const { t } = useTranslation();
  const config = useProductConfig(service.product_id);
  if (config.isPending) return <Loading text={t('extension.periodsLoading')} />;
  if (config.isError || config.data.periods.length === 0)
    return (
      <PageProblem message={t('extension.periodsLoadFailed')}>
        <button type="button" className="btn btn--secondary" onClick={() => void config.refetch()}>
          {t('payment.tryAgain')}
        </button>
        <PlansLink />
      </PageProblem>
    );
  return <ExtendService service={service} validUntil={validUntil} config={config.data} />;
}

/** /dashboard/payments/extend/{serviceId}/payment */
export function ExtensionPaymentPage() {
  const { t } = useTranslation();
  const { serviceId } = useParams();
  const overview = useServicesOverview();
  const service = findService(overview.data?.services ?? [], serviceId);
  const validUntil = service ? validUntilOf(service) : null;

  let content: ReactNode;
  if (!serviceId) content = <PageProblem message={t('planFacts.serviceIdMissing')} />;
  else if (overview.isPending) content = <Loading text={t('extension.loading')} />;
  else if (overview.isError)
    content = (
      <PageProblem message={t('planFacts.servicesLoadFailed')}>
        <button type="button" className="btn btn--secondary" onClick={() => void overview.refetch()}>
          {t('payment.tryAgain')}
        </button>
      </PageProblem>
    );
  else if (!service)
    content = (
      <PageProblem message={t('planFacts.serviceNotFound')}>
        <PlansLink />
      </PageProblem>
    );
  else if (!validUntil)
    content = (
      <PageProblem message={t('extension.noValidUntil')}>
        <PlansLink />
      </PageProblem>
    );
  else content = <ExtensionPeriods service={service} validUntil={validUntil} />;
  return <PaymentShell title={t('extension.title')}>{content}</PaymentShell>;
}
