// /dashboard/services/{id} (spec §2 "(index)"): the service's facts — name, plan, valid-until
// date, IP address, disk and file usage, users active/total, groups, shares, monthly price,
// uptime, status, its second copy on another node — whether its node has applied the latest
// change (and why not), and the start, stop and restart controls: offered as the API's `actions` say, stop and restart asked
// first (naming who is disconnected), the lifecycle's refusals as messages.
import type { ServiceDisplayState, ServiceOverviewItem } from '@debesis/contract';
import type { ParseKeys, TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApplyStatusBadge } from '../../../components/ApplyStatusBadge.tsx';
import { ConfirmDialog } from '../../../components/dialog/Dialog.tsx';
import { FormAlert } from '../../../components/form/fields.tsx';
import { useDocumentTitle } from '../../../components/useDocumentTitle.ts';
import {
  SERVICE_CONTROLS,
  serviceLifecycleApi,
  type ServiceControl,
} from '../../../services/service-lifecycle-api.ts';
import { useServicesOverview } from '../../../services/services-api.ts';
import { useServiceStatus } from '../kit/DaemonStatusCard.tsx';
import { Facts, type Fact } from '../kit/ResourceCrud.tsx';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { diskSize, formatDate, money, numberFormat, numberLocale } from '../../plans/format.ts';
import { ReplicaNote } from '../ReplicaNote.tsx';
import { OperationError } from '../resource-parts.tsx';
import { useServiceDetail } from '../service-context.ts';
import { useDaemonLabel } from '../daemon-names.ts';
import { GoesDownList } from '../GoesDownList.tsx';
import { formatBytes, ServiceStatusBadge } from '../service-parts.tsx';
import { UsageMeter } from '../UsageMeter.tsx';
import { BandwidthUsage } from '../network/BandwidthUsage.tsx';
import { ReachabilityNote } from '../network/ReachabilityNote.tsx';

/** The plan's disk in bytes (GB as the API sizes storage: 1024³ bytes). */
const BYTES_PER_GB = 1024 ** 3;

type Translate = TFunction<['overviewTab', 'workspace']>;

/** Seconds as "3 d 4 h", "5 h 12 min" or "12 min". */
export function formatUptime(seconds: number, t: Translate): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  if (days > 0) return t('serviceOverview.uptimeDays', { days, hours });
  if (hours > 0) return t('serviceOverview.uptimeHours', { hours, minutes });
  return t('serviceOverview.uptimeMinutes', { minutes });
}

/**
 * The uptime line when the API gives none, in the words of the display state: "Not running" only
 * while nothing runs (an Active workspace is not yet confirmed, not "not running").
 */
const UPTIME_UNKNOWN: Record<ServiceDisplayState, ParseKeys<'overviewTab'>> = {
  running: 'serviceOverview.notMeasured',
  degraded: 'serviceOverview.notMeasured',
  active: 'serviceOverview.notConfirmed',
  restarting: 'serviceOverview.uptimeRestarting',
  awaitingPayment: 'serviceOverview.notRunning',
  failed: 'serviceOverview.notRunning',
  preparing: 'serviceOverview.notRunning',
  waitingForResources: 'serviceOverview.notRunning',
  offline: 'serviceOverview.notRunning',
  stopped: 'serviceOverview.notRunning',
  locked: 'serviceOverview.notRunning',
  cancelled: 'serviceOverview.notRunning',
  terminated: 'serviceOverview.notRunning',
  connected: 'serviceOverview.notRunning',
};

function facts(service: ServiceOverviewItem, t: Translate, language: string): Fact[] {
  const notMeasured = t('serviceOverview.notMeasured');
  return [
    { testId: 'service-fact-name', label: t('serviceOverview.name'), value: service.name },
    { testId: 'service-fact-plan', label: t('serviceOverview.plan'), value: service.plan },
    {
      testId: 'service-fact-status',
      label: t('serviceOverview.status'),
      value: <ServiceStatusBadge service={service} testId="overview-status-badge" />,
    },
    {
      testId: 'service-fact-valid-until',
      label: t('serviceOverview.validUntil'),
      value: formatDate(service.valid_until, language),
    },
    {
      testId: 'service-fact-ip',
      label: t('serviceOverview.ipAddress'),
      value: service.ip_address ?? t('serviceOverview.notAssigned'),
    },
    {
      testId: 'service-fact-disk',
      label: t('serviceOverview.disk'),
      value:
        service.disk_usage === null ? (
          t('serviceOverview.diskOfUnknown', { total: diskSize(service.disk_space, language) })
        ) : (
          <UsageMeter
            label={t('serviceOverview.disk')}
            text={t('serviceOverview.diskOf', {
              used: formatBytes(service.disk_usage, language),
              total: diskSize(service.disk_space, language),
            })}
            used={service.disk_usage}
            total={service.disk_space * BYTES_PER_GB}
            testId="usage-disk"
          />
        ),
    },
    {
      testId: 'service-fact-files',
      label: t('serviceOverview.files'),
      value:
        service.file_usage === null
          ? notMeasured
          : numberFormat(numberLocale(language)).format(service.file_usage),
    },
    {
      testId: 'service-fact-users',
      label: t('serviceOverview.users'),
      value: (
        <UsageMeter
          label={t('serviceOverview.users')}
          text={t('serviceOverview.usersOf', { active: service.users_active, total: service.users_total })}
          used={service.users_active}
          total={service.users_total}
          testId="usage-users"
        />
      ),
    },
    { testId: 'service-fact-groups', label: t('serviceOverview.groups'), value: String(service.groups) },
    { testId: 'service-fact-shares', label: t('serviceOverview.shares'), value: String(service.shares) },
    {
      testId: 'service-fact-price',
      label: t('serviceOverview.monthlyPrice'),
      value: t('serviceOverview.perMonth', { amount: money(service.monthly_price, language) }),
    },
    {
      testId: 'service-fact-uptime',
      label: t('serviceOverview.uptime'),
      value:
        service.uptime === null ? t(UPTIME_UNKNOWN[service.display_state]) : formatUptime(service.uptime, t),
    },
  ];
}

const CONTROL_LABELS = {
  start: {
    label: 'serviceOverview.start',
    busy: 'serviceOverview.starting',
    failed: 'serviceOverview.startFailed',
    done: 'serviceOverview.started',
  },
  stop: {
    label: 'serviceOverview.stop',
    busy: 'serviceOverview.stopping',
    failed: 'serviceOverview.stopFailed',
    done: 'serviceOverview.stopped',
  },
  restart: {
    label: 'serviceOverview.restart',
    busy: 'serviceOverview.restarting',
    failed: 'serviceOverview.restartFailed',
    done: 'serviceOverview.restarted',
  },
} as const satisfies Record<ServiceControl, Record<'label' | 'busy' | 'failed' | 'done', string>>;

/** What start, stop and restart would do now, in the display state's words. */
const CONTROLS_STATE: Partial<Record<ServiceDisplayState, ParseKeys<'overviewTab'>>> = {
  running: 'serviceOverview.controlsRunning',
  restarting: 'serviceOverview.controlsRestarting',
  active: 'serviceOverview.controlsActive',
  degraded: 'serviceOverview.controlsDegraded',
  offline: 'serviceOverview.controlsOffline',
  stopped: 'serviceOverview.controlsStopped',
};

/** Stop and restart disconnect everyone connected: the owner is asked first. Start is not. */
const CONFIRMATIONS = {
  stop: {
    title: 'serviceOverview.stopConfirmTitle',
    body: 'serviceOverview.stopConfirmBody',
    confirm: 'serviceOverview.stopConfirm',
  },
  restart: {
    title: 'serviceOverview.restartConfirmTitle',
    body: 'serviceOverview.restartConfirmBody',
    confirm: 'serviceOverview.restartConfirm',
  },
} as const;
type ConfirmedControl = keyof typeof CONFIRMATIONS;

function Controls({ service }: { service: ServiceOverviewItem }) {
  const { t } = useTranslation(['overviewTab', 'workspace']);
  // The page's own overview query (no request of its own): when it last answered.
  const overview = useServicesOverview();
  const [asking, setAsking] = useState<ConfirmedControl | null>(null);
  const [requestedAt, setRequestedAt] = useState<number | null>(null);
  const run = useWorkspaceMutation(
    (control: ServiceControl) => serviceLifecycleApi.control(service.id, control),
    () => {
      setAsking(null);
      setRequestedAt(Date.now());
    },
  );
  const last = run.variables;
  // "Stop requested…" is true while the node carries it out: once the overview, asked again
  // after the request, no longer shows the service applying, the state badge says the rest.
  const carriedOut =
    requestedAt !== null && overview.dataUpdatedAt > requestedAt && service.apply_status !== 'applying';
  const stateText = CONTROLS_STATE[service.display_state];
  const offered = (control: ServiceControl) => service.actions.includes(control);
  const error =
    run.isError && last ? (
      <OperationError
        error={run.error}
        failure={t(CONTROL_LABELS[last].failed)}
        testId="service-control-error"
      />
    ) : null;
  return (
    <section className="card resource-section" aria-labelledby="service-controls-title">
      <h2 id="service-controls-title" className="resource-section__title">
        {t('serviceOverview.controls')}
      </h2>
      <p className="text-muted" data-testid="service-run-state">
        {stateText && SERVICE_CONTROLS.some(offered)
          ? t(stateText)
          : t('serviceOverview.controlsUnavailable')}
      </p>
      {run.isSuccess && last && !carriedOut && (
        <FormAlert tone="success" testId="service-control-done">
          {t(CONTROL_LABELS[last].done)}
        </FormAlert>
      )}
      {!asking && error}
      <div className="button-row">
        {SERVICE_CONTROLS.map((control) => (
          <button
            key={control}
            type="button"
            className={control === 'stop' ? 'btn btn--danger-outline' : 'btn btn--secondary'}
            disabled={run.isPending || !offered(control)}
            onClick={() => {
              if (control === 'start') {
                run.mutate(control);
              } else {
                run.reset();
                setAsking(control);
              }
            }}
            data-testid={`service-${control}`}
          >
            {run.isPending && last === control
              ? t(CONTROL_LABELS[control].busy)
              : t(CONTROL_LABELS[control].label)}
          </button>
        ))}
      </div>
      {asking && (
        <ConfirmDialog
          title={t(CONFIRMATIONS[asking].title, { name: service.name })}
          body={
            <>
              <GoesDownList service={service} testId={`service-${asking}-goes-down`} />
              <p>{t(CONFIRMATIONS[asking].body)}</p>
            </>
          }
          confirmLabel={t(CONFIRMATIONS[asking].confirm)}
          busyLabel={t(CONTROL_LABELS[asking].busy)}
          busy={run.isPending}
          error={error}
          onConfirm={() => run.mutate(asking)}
          onCancel={() => setAsking(null)}
          testId={`service-${asking}-dialog`}
        />
      )}
    </section>
  );
}

function NodeState({ service }: { service: ServiceOverviewItem }) {
  const { t } = useTranslation(['overviewTab', 'workspace']);
  const status = useServiceStatus(service.id);
  const daemonLabel = useDaemonLabel();
  const notLive = status.data?.drivers.filter((driver) => !driver.live) ?? [];
  return (
    <section
      className="card resource-section"
      aria-labelledby="service-node-title"
      data-testid="service-node"
    >
      <h2 id="service-node-title" className="resource-section__title">
        {t('serviceOverview.nodeTitle')}
      </h2>
      {status.isError && <OperationError error={null} failure={t('serviceOverview.statusFailed')} />}
      {status.data && (
        <Facts
          className="detail-list"
          facts={[
            {
              label: t('serviceOverview.changes'),
              value: (
                <ApplyStatusBadge
                  status={status.data.apply_status}
                  error={status.data.last_error}
                  testId="service-apply"
                />
              ),
            },
            {
              label: t('serviceOverview.node'),
              value: !status.data.placed
                ? t('serviceOverview.notPlaced')
                : status.data.node_online === false
                  ? t('serviceOverview.nodeOffline')
                  : t('serviceOverview.nodeOnline'),
              testId: 'service-node-state',
            },
            notLive.length > 0 && {
              label: t('serviceOverview.notLive'),
              value: (
                <ul role="list" className="plain-list">
                  {notLive.map((driver) => (
                    <li key={driver.driver}>
                      {driver.reason
                        ? `${daemonLabel(driver.driver)}: ${driver.reason}`
                        : daemonLabel(driver.driver)}
                    </li>
                  ))}
                </ul>
              ),
            },
            status.data.failures.length > 0 && {
              label: t('serviceOverview.failures'),
              value: (
                <ul role="list" className="plain-list" data-testid="service-failures">
                  {status.data.failures.map((failure) => (
                    <li key={`${failure.kind}:${failure.name}`}>
                      {failure.name}: {failure.error}
                    </li>
                  ))}
                </ul>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}

export function ServiceOverviewTab() {
  const { t, i18n } = useTranslation(['overviewTab', 'workspace']);
  const { service } = useServiceDetail();
  useDocumentTitle(service.name);
  return (
    <div className="service-tab-stack">
      <section className="card resource-section" aria-labelledby="service-facts-title">
        <h2 id="service-facts-title" className="resource-section__title">
          {t('serviceOverview.title')}
        </h2>
        <Facts className="service-facts" testId="service-facts" facts={facts(service, t, i18n.language)} />
        <ReplicaNote replica={service.replica} testId="service-replica" />
        {service.ip_address !== null && <ReachabilityNote serviceId={service.id} testId="service-reach" />}
      </section>
      <Controls service={service} />
      {service.ip_address !== null && <NodeState service={service} />}
      {service.ip_address !== null && <BandwidthUsage serviceId={service.id} testId="service-bandwidth" />}
    </div>
  );
}
