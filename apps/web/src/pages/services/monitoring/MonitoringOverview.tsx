// The monitoring tab's overview: whether the node and each daemon are up (GET status), how full
// the disk is (GET quota, the default window: the storage view's first answer too), and the
// service's alerts still active (GET alerts?service_id=). The service's own DaemonStatusCard
// (kit/) reports one driver with its apply state; monitoring's status names every daemon with a
// state of its own, so they are listed here as badges instead.
import { MONITORING_DEFAULT_HOURS, type Alert } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { useMonitoringStatus, useServiceAlerts, useServiceQuota } from '../../../workspace/monitoring-api.ts';
import { useDaemonLabel } from '../daemon-names.ts';
import { RelativeTime, useNow } from '../kit/RelativeTime.tsx';
import { UsageMeter } from '../UsageMeter.tsx';
import { BandwidthUsage } from '../network/BandwidthUsage.tsx';
import { Facts } from '../kit/ResourceCrud.tsx';
import {
  DaemonStateBadge,
  MonitoringSection,
  nodeText,
  useFormats,
  type Translate,
} from './monitoring-parts.tsx';

/** Kinds whose texts name a number from the alert's params, and which one. */
const ALERT_COUNTS: Partial<Record<Alert['kind'], string>> = {
  disk_warning: 'percent',
  disk_critical: 'percent',
  bandwidth_warning: 'percent',
  bandwidth_exhausted: 'percent',
  daemon_restarting: 'starts',
  service_expiring: 'days',
};

/** Kinds whose subject is a daemon's id: named in words, not as the node reports it. */
const DAEMON_SUBJECTS: ReadonlySet<Alert['kind']> = new Set(['daemon_down', 'daemon_restarting']);

/** What an alert is, in words: its kind, what it concerns and its figure when it has them. */
export function alertText(alert: Alert, t: Translate, daemonLabel: (id: string) => string): string {
  const kind = t(`alertKind.${alert.kind}`);
  const param = ALERT_COUNTS[alert.kind];
  const value = param ? alert.params[param] : undefined;
  const parts = [kind];
  if (alert.subject) parts.push(DAEMON_SUBJECTS.has(alert.kind) ? daemonLabel(alert.subject) : alert.subject);
  if (typeof value === 'number') {
    parts.push(
      param === 'percent'
        ? t('alertFigure.percent', { value: Math.round(value) })
        : t(param === 'days' ? 'alertFigure.days' : 'alertFigure.starts', { count: value }),
    );
  }
  return parts.join(' · ');
}

export function AlertList({ alerts, testId }: { alerts: readonly Alert[]; testId: string }) {
  const { t } = useTranslation(['monitoringTab', 'workspace']);
  const daemonLabel = useDaemonLabel();
  const now = useNow();
  return (
    <ul className="plain-list monitoring-alerts" data-testid={testId}>
      {alerts.map((alert) => (
        <li key={alert.id} className="monitoring-alert" data-testid={`monitoring-alert-${alert.id}`}>
          <span
            className={`badge ${alert.level === 'critical' ? 'badge--danger' : 'badge--warning'}`}
            data-level={alert.level}
          >
            {t(`alertLevel.${alert.level}`)}
          </span>
          <span className="monitoring-alert__text">{alertText(alert, t, daemonLabel)}</span>
          <span className="text-muted">
            {t('overview.raised')} <RelativeTime at={alert.raised_at} now={now} justNow={t('justNow')} />
          </span>
        </li>
      ))}
    </ul>
  );
}

export function MonitoringOverview({ serviceId }: { serviceId: string }) {
  const { t } = useTranslation(['monitoringTab', 'workspace']);
  const format = useFormats();
  const daemonLabel = useDaemonLabel();
  const now = useNow();
  const status = useMonitoringStatus(serviceId);
  const quota = useServiceQuota(serviceId, MONITORING_DEFAULT_HOURS);
  const alerts = useServiceAlerts(serviceId, MONITORING_DEFAULT_HOURS);
  const active = alerts.data?.alerts.filter((alert) => alert.cleared_at === null) ?? [];

  return (
    <>
      <MonitoringSection id="monitoring-status" title={t('overview.statusTitle')} load={status}>
        {status.data && (
          <Facts
            className="service-facts"
            testId="monitoring-status"
            facts={[
              { label: t('node.title'), value: nodeText(status.data.node, t), testId: 'monitoring-node' },
              ...status.data.daemons.map((daemon) => ({
                label: daemonLabel(daemon.name),
                value: (
                  <DaemonStateBadge state={daemon.state} testId={`monitoring-daemon-state-${daemon.name}`} />
                ),
              })),
              {
                label: t('overview.activeAlerts'),
                value: format.count(status.data.active_alerts),
                testId: 'monitoring-active-alerts',
              },
            ]}
          />
        )}
      </MonitoringSection>

      <MonitoringSection id="monitoring-disk" title={t('overview.diskTitle')} load={quota}>
        {quota.data && (
          <div className="monitoring-disk" data-testid="monitoring-disk">
            <UsageMeter
              label={t('overview.diskLabel')}
              text={t('overview.diskText', {
                used: format.bytes(quota.data.used_bytes),
                size: format.bytes(quota.data.size_bytes),
                percent: format.decimal(quota.data.used_percent),
              })}
              used={quota.data.used_bytes}
              total={quota.data.size_bytes}
              testId="monitoring-disk-meter"
            />
            <p className="text-muted" data-testid="monitoring-disk-facts">
              {t('overview.diskFacts', {
                free: format.bytes(quota.data.free_bytes),
                files: format.count(quota.data.files),
              })}{' '}
              {quota.data.measured_at === null ? (
                t('overview.notMeasured')
              ) : (
                <>
                  {t('overview.measured')}{' '}
                  <RelativeTime at={quota.data.measured_at} now={now} justNow={t('justNow')} />
                </>
              )}
            </p>
          </div>
        )}
      </MonitoringSection>

      <BandwidthUsage serviceId={serviceId} testId="monitoring-bandwidth" />

      <MonitoringSection id="monitoring-alerts" title={t('overview.alertsTitle')} load={alerts}>
        {alerts.isSuccess && active.length === 0 && (
          <p className="text-muted" data-testid="monitoring-alerts-none">
            {t('overview.noAlerts')}
          </p>
        )}
        {active.length > 0 && <AlertList alerts={active} testId="monitoring-alerts" />}
      </MonitoringSection>
    </>
  );
}
