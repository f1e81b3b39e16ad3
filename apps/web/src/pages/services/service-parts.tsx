// What the services list and a service's page both show about a service (spec §4): its display
// state, as the API computed it (one model for the list, the header and the overview); the plain
// words of an offline, degraded, stopped or cancelled one and what to do; the expiring-soon and critical warnings with the days left; the message asking to
// extend an expired or quarantined service, with the way to do it; retrying the payment of an
// unpaid or failed one; and how often the page should ask again (while it changes, and while a
// second copy's freshness is shown).
import {
  REPLICA_SYNC_INTERVAL_SECONDS,
  type ServiceDisplayState,
  type ServiceOverviewItem,
} from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../components/form/fields.tsx';
import '../../i18n/orders-messages.ts';
import '../../i18n/workspace-messages.ts';
import { paymentPagePaths } from '../../payments/payments-api.ts';
import { serviceLifecycleApi } from '../../services/service-lifecycle-api.ts';
import { APPLY_POLL_MS } from '../../workspace/workspace-resource.ts';
import { usePaymentStart } from '../payments/payment-parts.tsx';
import { formatDate } from '../plans/format.ts';
import '../payments/payments.css';
import { BusyButton } from '../../components/form/BusyButton.tsx';

/** Being set up, or placed with a change the node has not confirmed yet: worth asking again. */
export function isChanging(service: ServiceOverviewItem): boolean {
  if (service.status === 'processing' || service.status === 'resourcePending') return true;
  return service.apply_status === 'applying' && service.ip_address !== null;
}

/** How often a second copy's freshness is asked again: as often as the copy syncs. */
export const REPLICA_POLL_MS = REPLICA_SYNC_INTERVAL_SECONDS * 1000;

/**
 * A refetchInterval for the overview: every APPLY_POLL_MS while any of `services` is changing;
 * else every REPLICA_POLL_MS while one has a second copy, whose "in sync 12 seconds ago" would
 * otherwise grow old on screen while the copy keeps up; else not at all.
 */
export function pollOverview(services: readonly ServiceOverviewItem[]): number | false {
  if (services.some(isChanging)) return APPLY_POLL_MS;
  return services.some((service) => service.replica.state !== 'none') ? REPLICA_POLL_MS : false;
}

/** The badge's colour of each display state: good, on its way, needs attention, ended. */
const STATE_TONES: Record<ServiceDisplayState, 'success' | 'info' | 'warning' | 'danger' | 'neutral'> = {
  running: 'success',
  connected: 'success',
  active: 'info',
  restarting: 'info',
  preparing: 'info',
  waitingForResources: 'warning',
  awaitingPayment: 'warning',
  degraded: 'warning',
  stopped: 'neutral',
  offline: 'danger',
  failed: 'danger',
  locked: 'danger',
  cancelled: 'neutral',
  terminated: 'danger',
};

/**
 * The service's display state (data-status keeps its lifecycle status for scripts and tests): the
 * services list, the service's page, the Plans page and the Linux-user portal all show this one.
 */
export function ServiceStatusBadge({
  service,
  testId,
}: {
  service: Pick<ServiceOverviewItem, 'display_state'> & { status: string };
  testId: string;
}) {
  const { t } = useTranslation('workspace');
  const tone = STATE_TONES[service.display_state];
  return (
    <span
      className={`badge${tone === 'neutral' ? '' : ` badge--${tone}`}`}
      data-testid={testId}
      data-status={service.status}
      data-display-state={service.display_state}
    >
      {t(`serviceState.${service.display_state}`)}
    </span>
  );
}

const LAPSED = new Set<ServiceOverviewItem['status']>(['expired', 'quarantined']);

/** The warnings and ways forward of a service's status; nothing for a service that is fine. */
export function ServiceNotices({ service }: { service: ServiceOverviewItem }) {
  const { t, i18n } = useTranslation('workspace');
  const { t: tApp } = useTranslation();
  const extend = (
    <Link
      to={paymentPagePaths.extend(service.id)}
      className="btn btn--secondary btn--small"
      data-testid={`service-extend-${service.id}`}
    >
      {t('serviceNotice.extend')} <span className="visually-hidden">{service.name}</span>
    </Link>
  );
  if (LAPSED.has(service.status)) {
    return (
      <FormAlert tone="error" testId={`service-lapsed-${service.id}`}>
        <p>{tApp('errors.service_expired')}</p>
        {service.terminates_at && (
          <p>{t('serviceNotice.terminatesAt', { date: formatDate(service.terminates_at, i18n.language) })}</p>
        )}
        {extend}
      </FormAlert>
    );
  }
  if (service.status === 'suspended') {
    return (
      <FormAlert tone="error" testId={`service-suspended-${service.id}`}>
        {tApp('errors.service_suspended')}
      </FormAlert>
    );
  }
  if (service.status === 'awaitingPayment' || service.status === 'failed') {
    return <RetryPayment service={service} />;
  }
  if (service.display_state === 'offline') {
    return (
      <FormAlert tone="error" testId={`service-offline-${service.id}`}>
        {t('serviceNotice.offlineNotServing')}
      </FormAlert>
    );
  }
  if (service.display_state === 'degraded') {
    return (
      <FormAlert tone="warning" testId={`service-degraded-${service.id}`}>
        {service.display_reason === 'node_silent'
          ? t('serviceNotice.degradedNodeSilent')
          : t('serviceNotice.degraded')}
      </FormAlert>
    );
  }
  if (service.display_state === 'cancelled' && service.terminates_at) {
    return (
      <p className="text-muted service-note" data-testid={`service-cancelled-${service.id}`}>
        {t('serviceNotice.cancelled', { date: formatDate(service.terminates_at, i18n.language) })}
      </p>
    );
  }
  if (service.status === 'resourcePending' || service.status === 'processing') {
    return (
      <p className="text-muted service-note" data-testid={`service-preparing-${service.id}`}>
        {service.status === 'resourcePending'
          ? t('serviceNotice.resourcePending')
          : t('serviceNotice.processing')}
      </p>
    );
  }
  if (service.expiry_warning && service.days_left !== null) {
    const critical = service.expiry_warning === 'critical';
    return (
      <FormAlert tone={critical ? 'error' : 'warning'} testId={`service-expiry-${service.id}`}>
        <p data-warning={service.expiry_warning}>
          {critical
            ? t('serviceNotice.critical', { count: service.days_left })
            : t('serviceNotice.expiringSoon', { count: service.days_left })}
        </p>
        {extend}
      </FormAlert>
    );
  }
  // Last: a warning that the service is about to expire matters more.
  if (service.display_state === 'stopped') {
    return (
      <p className="text-muted service-note" data-testid={`service-stopped-${service.id}`}>
        {t('serviceNotice.stopped')}
      </p>
    );
  }
  return null;
}

/** An unpaid or failed purchase: pay it again (a new payment session at the provider). */
function RetryPayment({ service }: { service: ServiceOverviewItem }) {
  const { t } = useTranslation('workspace');
  const payment = usePaymentStart();
  return (
    <FormAlert tone="warning" testId={`service-unpaid-${service.id}`}>
      <p>
        {service.status === 'failed' ? t('serviceNotice.paymentFailed') : t('serviceNotice.awaitingPayment')}
      </p>
      {payment.error && (
        <p className="field__error" role="alert" data-testid={`service-retry-error-${service.id}`}>
          {payment.error}
        </p>
      )}
      <BusyButton
        busy={payment.busy}
        label={t('serviceNotice.retryPayment')}
        busyLabel={t('serviceNotice.retrying')}
        type="button"
        className="btn btn--primary btn--small"
        onClick={() =>
          void payment.start(
            () => serviceLifecycleApi.retryPayment(service.id),
            t('serviceNotice.retryFailed'),
          )
        }
        testId={`service-retry-payment-${service.id}`}
      >
        {' '}
        <span className="visually-hidden">{service.name}</span>
      </BusyButton>
    </FormAlert>
  );
}

export { formatBytes } from '../../lib/format-bytes.ts';
