// The account at a glance above the services list (GET /api/v1/dashboard/, spec §7 "Other"):
// services by status, those expiring soon with the days left, orders awaiting payment and the
// account credit. A failure shows the spec's dashboard load-failure message; the list below it
// does not depend on it.
import { SERVICE_STATUSES } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import '../../i18n/activity-messages.ts';
import { money } from '../plans/format.ts';
import { serviceDetailPath } from '../services/service-context.ts';
import { useDashboardSummary } from './activity-api.ts';
import './activity.css';
import { LoadFailed } from '../../components/LoadFailed.tsx';

export function DashboardSummary() {
  const { t, i18n } = useTranslation('activity');
  const { t: tApp } = useTranslation();
  const summary = useDashboardSummary();
  if (summary.isError) {
    return (
      <LoadFailed testId="dashboard-summary-error" query={summary} retryLabel={t('page.retry')}>
        {t('summary.loadFailed')}
      </LoadFailed>
    );
  }
  const data = summary.data;
  if (!data) return null;
  const language = i18n.language;
  const statuses = SERVICE_STATUSES.filter((status) => data.services.by_status[status] > 0);
  return (
    <section aria-labelledby="dashboard-summary-title" data-testid="dashboard-summary">
      <h2 id="dashboard-summary-title" className="visually-hidden">
        {t('summary.title')}
      </h2>
      <dl className="dashboard-summary">
        <div className="card">
          <dt>{t('summary.services')}</dt>
          <dd className="dashboard-summary__figure" data-testid="summary-services-total">
            {data.services.total}
          </dd>
          {statuses.length > 0 && (
            <dd>
              <ul aria-label={t('summary.byStatus')} data-testid="summary-by-status">
                {statuses.map((status) => (
                  <li key={status} data-status={status}>
                    {tApp(`serviceList.status_${status}`)}: {data.services.by_status[status]}
                  </li>
                ))}
              </ul>
            </dd>
          )}
        </div>
        <div className="card">
          <dt>{t('summary.expiringSoon')}</dt>
          <dd className="dashboard-summary__figure" data-testid="summary-expiring-count">
            {data.expiring_soon.services.length}
          </dd>
          <dd>
            {data.expiring_soon.services.length === 0 ? (
              <span className="text-muted">
                {t('summary.expiringNone', { days: data.expiring_soon.within_days })}
              </span>
            ) : (
              <ul data-testid="summary-expiring">
                {data.expiring_soon.services.map((service) => (
                  <li key={service.id} data-warning={service.expiry_warning}>
                    <Link to={serviceDetailPath(service.id)}>
                      {t('summary.daysLeft', { name: service.name, count: service.days_left })}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        <div className="card">
          <dt>{t('summary.unpaid')}</dt>
          <dd className="dashboard-summary__figure" data-testid="summary-unpaid-count">
            {data.unpaid_orders.count}
          </dd>
          <dd data-testid="summary-unpaid">
            {data.unpaid_orders.count === 0 ? (
              <span className="text-muted">{t('summary.unpaidNone')}</span>
            ) : (
              <Link to="/dashboard/billing">
                {t('summary.unpaidOrders', {
                  count: data.unpaid_orders.count,
                  amount: money(data.unpaid_orders.amount, language),
                })}
              </Link>
            )}
          </dd>
        </div>
        <div className="card">
          <dt>{t('summary.credit')}</dt>
          <dd className="dashboard-summary__figure" data-testid="summary-credit">
            {money(data.credit.balance, language)}
          </dd>
        </div>
      </dl>
    </section>
  );
}
