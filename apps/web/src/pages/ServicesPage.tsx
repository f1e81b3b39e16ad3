// The services list (spec §2 "Services"): the customer's workspaces from
// GET /api/v1/services/overview with their status, validity and price, the warnings and ways
// forward of their status (expiring soon, critical, expired or quarantined with Extend, unpaid
// with Retry payment) and the way into each; the honest empty state when there are none. Asked
// again every 2 s while a service is being set up or its node is applying a change, and every
// 30 s while one shows its second copy (how fresh it is).
import type { ServiceOverviewItem } from '@debesis/contract';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ServerIcon } from '../components/icons.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { LoadFailed } from '../components/LoadFailed.tsx';
import '../i18n/orders-messages.ts';
import { OpenOrders } from '../payments/OpenOrders.tsx';
import { useServicesOverview } from '../services/services-api.ts';
import { formatDate, money } from './plans/format.ts';
import './payments/payments.css';
import { ReplicaNote } from './services/ReplicaNote.tsx';
import { serviceDetailPath } from './services/service-context.ts';
import { isChanging, pollOverview, ServiceNotices, ServiceStatusBadge } from './services/service-parts.tsx';
import './services/service-detail.css';

// The account summary loads on its own: the list never waits for it.
const DashboardSummary = lazy(async () => ({
  default: (await import('./activity/DashboardSummary.tsx')).DashboardSummary,
}));

function ServiceRow({ service }: { service: ServiceOverviewItem }) {
  const { t, i18n } = useTranslation();
  const { t: tWorkspace } = useTranslation('workspace');
  const language = i18n.language;
  const titleId = `service-row-${service.id}-title`;
  return (
    <li className="card service-row" data-testid={`service-row-${service.id}`} aria-labelledby={titleId}>
      <div className="service-row__head">
        <h2 id={titleId} className="service-row__name">
          <Link to={serviceDetailPath(service.id)} data-testid={`service-link-${service.id}`}>
            {service.name}
          </Link>
        </h2>
        <ServiceStatusBadge service={service} testId={`service-status-${service.id}`} />
        {isChanging(service) && service.status === 'active' && (
          <span className="badge badge--info" data-testid={`service-applying-${service.id}`}>
            {tWorkspace('serviceCard.applying')}
          </span>
        )}
      </div>
      <dl className="service-row__facts">
        <div>
          <dt className="text-muted">{t('serviceList.plan')}</dt>
          <dd data-testid={`service-plan-${service.id}`}>{service.plan}</dd>
        </div>
        <div>
          <dt className="text-muted">{t('serviceList.validUntil')}</dt>
          <dd>{formatDate(service.valid_until, language)}</dd>
        </div>
        <div>
          <dt className="visually-hidden">{t('serviceList.price')}</dt>
          <dd data-testid={`service-price-${service.id}`}>
            {t('serviceList.perMonth', { amount: money(service.monthly_price, language) })}
          </dd>
        </div>
      </dl>
      <ReplicaNote replica={service.replica} testId={`service-replica-${service.id}`} />
      <ServiceNotices service={service} />
      <div className="service-row__actions">
        <Link
          to={serviceDetailPath(service.id)}
          className="btn btn--secondary btn--small"
          data-testid={`service-open-${service.id}`}
        >
          {tWorkspace('serviceCard.manage')} <span className="visually-hidden">{service.name}</span>
        </Link>
      </div>
    </li>
  );
}

export function ServicesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('services.title'));
  // Services being set up or changed are asked for again until they settle (active, applied);
  // a second copy's freshness, as often as it syncs.
  const overview = useServicesOverview({
    refetchInterval: (data) => pollOverview(data?.services ?? []),
  });
  const services = overview.data?.services ?? [];
  return (
    <>
      <header className="page-header">
        <h1>{t('services.title')}</h1>
        <p className="text-muted">{t('services.lead')}</p>
      </header>
      <Suspense fallback={null}>
        <DashboardSummary />
      </Suspense>
      <OpenOrders />
      {overview.isPending && (
        <p className="text-muted" role="status">
          {t('serviceList.loading')}
        </p>
      )}
      {overview.isError && (
        <LoadFailed testId="services-error" query={overview} retryLabel={t('serviceList.retry')}>
          {t('serviceList.loadFailed')}
        </LoadFailed>
      )}
      {overview.isSuccess && services.length === 0 && (
        <div className="card empty-state" data-testid="services-empty">
          <span className="empty-state__icon">
            <ServerIcon width={28} height={28} />
          </span>
          <h2 className="empty-state__title">{t('services.emptyTitle')}</h2>
          <p className="text-muted">{t('services.emptyBody')}</p>
          <Link to="/auth/plans" className="btn btn--primary">
            {t('services.emptyCta')}
          </Link>
        </div>
      )}
      {services.length > 0 && (
        <ul role="list" className="service-list" data-testid="service-list">
          {services.map((service) => (
            <ServiceRow key={service.id} service={service} />
          ))}
        </ul>
      )}
    </>
  );
}
