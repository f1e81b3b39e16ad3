// The services list (spec §2 "Services"): the customer's workspaces from
// GET /api/v1/services/overview with their status, validity and price; the honest empty state
// when there are none.
import type { ServiceSummary } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../components/form/fields.tsx';
import { ServerIcon } from '../components/icons.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import '../i18n/orders-messages.ts';
import { useServicesOverview } from '../services/services-api.ts';
import { formatDate, money } from './plans/format.ts';
import './payments/payments.css';

function ServiceRow({ service }: { service: ServiceSummary }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (
    <li className="card service-row" data-testid={`service-row-${service.id}`}>
      <h2 className="service-row__name">{service.name}</h2>
      <dl className="service-row__facts">
        <div>
          <dt className="visually-hidden">{t('serviceList.plan')}</dt>
          <dd className="text-muted">{service.plan}</dd>
        </div>
        <div>
          <dt className="visually-hidden">{t('serviceList.status')}</dt>
          <dd>
            <span
              className={`service-status service-status--${service.status}`}
              data-testid={`service-status-${service.id}`}
              data-status={service.status}
            >
              {t(`serviceList.status_${service.status}`)}
            </span>
          </dd>
        </div>
        <div>
          <dt className="text-muted">{t('serviceList.validUntil')}</dt>
          <dd>{formatDate(service.valid_until, language)}</dd>
        </div>
        <div>
          <dt className="visually-hidden">{t('serviceList.price')}</dt>
          <dd>{t('serviceList.perMonth', { amount: money(service.monthly_price, language) })}</dd>
        </div>
      </dl>
    </li>
  );
}

export function ServicesPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('services.title'));
  const overview = useServicesOverview();
  const services = overview.data?.services ?? [];
  return (
    <>
      <header className="page-header">
        <h1>{t('services.title')}</h1>
        <p className="text-muted">{t('services.lead')}</p>
      </header>
      {overview.isPending && (
        <p className="text-muted" role="status">
          {t('serviceList.loading')}
        </p>
      )}
      {overview.isError && (
        <FormAlert tone="error" testId="services-error">
          {t('serviceList.loadFailed')}{' '}
          <button type="button" className="btn btn--ghost" onClick={() => void overview.refetch()}>
            {t('serviceList.retry')}
          </button>
        </FormAlert>
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
