// /dashboard/services/{serviceId} (spec §2 "Service detail"): the service picked by id from the
// overview list ('Service not found' when it is not there, 'Failed to load service details' when
// the list cannot be loaded), its status and warnings, and its tabs (service-tabs.ts, the list the
// router reads too). The tabs are child routes reading the service from the outlet context; the page keeps asking while the service changes.
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useParams } from 'react-router';
import { FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import '../../i18n/workspace-messages.ts';
import { findService, useServicesOverview } from '../../services/services-api.ts';
import type { ServiceDetailContext } from './service-context.ts';
import { serviceDetailPath } from './service-context.ts';
import { pollOverview, ServiceNotices, ServiceStatusBadge } from './service-parts.tsx';
import { shippedTabs } from './service-tabs.ts';
import { useTabLabel } from './tab-labels.ts';
import './service-detail.css';

function Problem({ message, testId, retry }: { message: string; testId: string; retry?: () => void }) {
  const { t } = useTranslation('workspace');
  useDocumentTitle(message);
  return (
    <div className="service-problem">
      <FormAlert tone="error" testId={testId}>
        {message}
      </FormAlert>
      <div className="button-row">
        {retry && (
          <button type="button" className="btn btn--secondary" onClick={retry}>
            {t('resource.retry')}
          </button>
        )}
        <Link to="/dashboard/services" className="btn btn--ghost" data-testid="service-back">
          {t('serviceDetail.backToServices')}
        </Link>
      </div>
    </div>
  );
}

export function ServiceDetailPage() {
  const { t } = useTranslation('workspace');
  const { t: tApp } = useTranslation();
  const tabLabel = useTabLabel();
  const { serviceId } = useParams();
  const overview = useServicesOverview({
    refetchInterval: (data) => {
      const service = findService(data?.services ?? [], serviceId);
      return service ? pollOverview([service]) : false;
    },
  });
  if (!serviceId) return <Problem message={t('serviceDetail.idMissing')} testId="service-id-missing" />;
  if (overview.isPending) {
    return (
      <p className="text-muted" role="status" data-testid="service-loading">
        {t('serviceDetail.loading')}
      </p>
    );
  }
  // Only when there is nothing to show: a failed background refetch (the page polls while a
  // change applies) keeps the page and its tab as they were, an open form included, and the
  // next poll tries again. React Query keeps the last data in an `error` state.
  if (!overview.data) {
    return (
      <Problem
        message={t('serviceDetail.loadFailed')}
        testId="service-load-error"
        retry={() => void overview.refetch()}
      />
    );
  }
  const service = findService(overview.data.services, serviceId);
  if (!service) return <Problem message={tApp('errors.service_not_found')} testId="service-not-found" />;

  const context: ServiceDetailContext = { service };
  return (
    <div className="service-detail" data-testid="service-detail">
      <header className="page-header service-header">
        <Link to="/dashboard/services" className="service-header__back">
          {t('serviceDetail.backToServices')}
        </Link>
        <div className="service-header__title">
          <h1 data-testid="service-name">{service.name}</h1>
          <ServiceStatusBadge service={service} testId="service-status" />
        </div>
        <p className="text-muted">
          {service.plan}
          {service.ip_address && ` · ${service.ip_address}`}
        </p>
      </header>
      <ServiceNotices service={service} />
      <nav aria-label={t('serviceDetail.tabs')} className="service-tabs">
        <ul role="list">
          {shippedTabs().map((tab) => (
            <li key={tab.id}>
              <NavLink
                to={serviceDetailPath(service.id, tab.path)}
                end={tab.path === ''}
                className="service-tabs__link"
                data-testid={`service-tab-${tab.id}`}
              >
                {tabLabel(tab)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet context={context} />
    </div>
  );
}
