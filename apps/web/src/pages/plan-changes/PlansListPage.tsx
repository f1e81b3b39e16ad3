// /dashboard/plans (spec §2 "plans (index is the plan list)"): each service's current plan — disk,
// bandwidth (twice the disk), users, billing period, paid-until date, monthly price before VAT and
// status (the services list's badge, so a stopped workspace reads the same on both) — with "Change
// plan" and "Extend"; the account's credit when there is any; the notice of a plan change that has
// just applied; and the way to a first purchase when there is nothing yet.
import type { Product, ServiceOverviewItem } from '@debesis/contract';
import { bandwidthFor } from '@debesis/pricing';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { DefinitionList } from '../../components/DefinitionList.tsx';
import { FormAlert } from '../../components/form/fields.tsx';
import { LayersIcon } from '../../components/icons.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import '../../i18n/plan-changes-messages.ts';
import { freeCredit, useAccountCredit } from '../../payments/plan-changes-api.ts';
import { paymentPagePaths } from '../../payments/payments-api.ts';
import { useServicesOverview } from '../../services/services-api.ts';
import { diskSize, formatDate, money } from '../plans/format.ts';
import { useProducts } from '../plans/quote.ts';
import { Loading } from '../payments/payment-parts.tsx';
import { ServiceStatusBadge } from '../services/service-parts.tsx';
import { planChangePath, periodText } from './plan-facts.ts';
import { readPlanChangedNotice } from './plan-changed-notice.ts';
import './plan-changes.css';

function ServicePlan({
  service,
  products,
}: {
  service: ServiceOverviewItem;
  products: Product[] | undefined;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const facts: { key: string; label: string; value: string }[] = [
    { key: 'plan', label: t('planFacts.plan'), value: service.plan },
    { key: 'disk', label: t('planFacts.disk'), value: diskSize(service.disk_space, language) },
    {
      key: 'bandwidth',
      label: t('planFacts.bandwidth'),
      value: diskSize(bandwidthFor(service.disk_space), language),
    },
    { key: 'users', label: t('planFacts.users'), value: String(service.users_total) },
    {
      key: 'period',
      label: t('planFacts.period'),
      value: periodText(t, products, service.product_id, service.period_id),
    },
    {
      key: 'valid-until',
      label: t('planFacts.validUntil'),
      value: formatDate(service.valid_until, language),
    },
    {
      key: 'price',
      label: t('planFacts.monthlyPrice'),
      value: t('planFacts.perMonthExclVat', { amount: money(service.monthly_price, language) }),
    },
  ];
  const titleId = `plans-service-${service.id}-title`;
  return (
    <li className="card plans-service" data-testid={`plans-service-${service.id}`} aria-labelledby={titleId}>
      <div className="plans-service__head">
        <h2 id={titleId} className="plans-service__name">
          {service.name}
        </h2>
        <span>
          <span className="visually-hidden">{t('planFacts.status')}: </span>
          <ServiceStatusBadge service={service} testId={`plans-status-${service.id}`} />
        </span>
      </div>
      <DefinitionList
        className="plans-service__facts"
        items={facts.map((fact) => ({
          term: fact.label,
          value: fact.value,
          testId: `plans-${fact.key}-${service.id}`,
        }))}
      />
      <div className="button-row plans-service__actions">
        <Link
          to={planChangePath(service.id)}
          className="btn btn--primary"
          data-testid={`plans-change-${service.id}`}
        >
          {t('planList.change')}
          <span className="visually-hidden"> — {service.name}</span>
        </Link>
        <Link
          to={paymentPagePaths.extend(service.id)}
          className="btn btn--secondary"
          data-testid={`plans-extend-${service.id}`}
        >
          {t('planList.extend')}
          <span className="visually-hidden"> — {service.name}</span>
        </Link>
      </div>
    </li>
  );
}

function CreditCard() {
  const { t, i18n } = useTranslation();
  const credit = useAccountCredit();
  if (!credit.data || credit.data.balance <= 0) return null;
  const reserved = credit.data.balance - freeCredit(credit.data);
  return (
    <section className="card plans-credit" aria-labelledby="plans-credit-title" data-testid="plans-credit">
      <h2 id="plans-credit-title" className="plans-credit__title">
        {t('planList.creditTitle')}
      </h2>
      <p className="plans-credit__amount" data-testid="plans-credit-balance">
        {money(credit.data.balance, i18n.language)}
      </p>
      <p className="text-muted">{t('planList.creditBody')}</p>
      {reserved > 0 && (
        <p className="text-muted" data-testid="plans-credit-reserved">
          {t('planList.creditReserved', { amount: money(reserved, i18n.language) })}
        </p>
      )}
    </section>
  );
}

export function PlansListPage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('planList.title'));
  const location = useLocation();
  const notice = readPlanChangedNotice(location.state);
  const overview = useServicesOverview();
  const products = useProducts();
  const services = overview.data?.services ?? [];

  return (
    <div className="plans-list">
      <header className="page-header plans-list__header">
        <div>
          <h1>{t('planList.title')}</h1>
          <p className="text-muted">{t('planList.lead')}</p>
        </div>
        {services.length > 0 && (
          <Link to="/auth/plans" className="btn btn--ghost" data-testid="plans-add-service">
            {t('planList.addService')}
          </Link>
        )}
      </header>
      {notice && (
        <FormAlert tone="success" testId="plans-changed">
          {notice.from === notice.plan
            ? t('planList.resourcesChanged', {
                plan: notice.plan,
                disk: diskSize(notice.disk_space, i18n.language),
                count: notice.users_count,
              })
            : t('planList.changed', { from: notice.from, plan: notice.plan })}
          {notice.credit > 0 && (
            <> {t('planList.creditReceived', { amount: money(notice.credit, i18n.language) })}</>
          )}
        </FormAlert>
      )}
      <CreditCard />
      {overview.isPending && <Loading text={t('planFacts.servicesLoading')} />}
      {overview.isError && (
        <LoadFailed retryLabel={t('planFacts.retry')} query={overview} testId="plans-error">
          {t('planFacts.servicesLoadFailed')}
        </LoadFailed>
      )}
      {overview.isSuccess && services.length === 0 && (
        <div className="card empty-state" data-testid="plans-empty">
          <span className="empty-state__icon">
            <LayersIcon width={28} height={28} />
          </span>
          <h2 className="empty-state__title">{t('planList.emptyTitle')}</h2>
          <p className="text-muted">{t('planList.emptyBody')}</p>
          <Link to="/auth/plans" className="btn btn--primary" data-testid="plans-choose">
            {t('planList.emptyCta')}
          </Link>
        </div>
      )}
      {services.length > 0 && (
        <ul role="list" className="plans-services" data-testid="plans-services">
          {services.map((service) => (
            <ServicePlan key={service.id} service={service} products={products.data} />
          ))}
        </ul>
      )}
    </div>
  );
}
