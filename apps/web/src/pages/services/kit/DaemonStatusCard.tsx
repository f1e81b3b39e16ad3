// Whether a workspace feature's daemon serves, in plain words, for any tab: serving; not serving
// (set up and checked, not running, and why); failed (the node could not start or change it, and
// why); waiting for the node's first report; not placed on a node. A tab with a status of its own
// (Samba's address and reload) passes its report and its rows; any other reads its driver from
// the service's status (GET /services/{id}/status) with useDriverReport.
import type {
  ResourceApplyStatus,
  ServiceDisplayState,
  ServiceOverviewItem,
  ServiceStatusDetail,
} from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApplyStatusBadge } from '../../../components/ApplyStatusBadge.tsx';
import '../../../i18n/workspace-messages.ts';
import { serviceLifecycleApi } from '../../../services/service-lifecycle-api.ts';
import { workspaceKeys } from '../../../workspace/workspace-keys.ts';
import { FormAlert } from '../../../components/form/fields.tsx';
import { useWorkspaceMutation, whileApplying } from '../../../workspace/workspace-resource.ts';
import { FactRow, type Fact } from './ResourceCrud.tsx';
import { OperationError } from '../resource-parts.tsx';
import type { ServiceDetailContext } from '../service-context.ts';

/** What the node said about a daemon: its driver's `live` (null: no report yet) and why not. */
export interface DaemonReport {
  placed: boolean;
  live: boolean | null;
  reason: string | null;
  apply_status: ResourceApplyStatus;
  /** The node's error when its last change failed. */
  error?: string | null;
}

export type DaemonState =
  | { kind: 'notPlaced' }
  | { kind: 'waiting' }
  | { kind: 'serving' }
  | { kind: 'restarting' }
  | { kind: 'workspaceDown'; state: ServiceDisplayState }
  | { kind: 'nothingToServe' }
  | { kind: 'notServing'; reason: string | null }
  | { kind: 'failed'; reason: string | null };

/** Workspace display states in which none of its daemons serves, whatever a driver last said. */
const WORKSPACE_DOWN: ReadonlySet<ServiceDisplayState> = new Set([
  'awaitingPayment',
  'failed',
  'preparing',
  'waitingForResources',
  'stopped',
  'locked',
  'cancelled',
  'terminated',
]);

/**
 * One daemon's line, under the workspace's own state (the API's display state, the one the
 * header, the list and the overview show): a stopped or restarting workspace serves nothing, so
 * no tab says "Yes" meanwhile; a feature with nothing set up (no shares, no VPN users) has
 * nothing to serve yet rather than being "not running".
 */
export function daemonState(
  report: DaemonReport,
  workspace?: Pick<ServiceOverviewItem, 'display_state'>,
  nothingToServe = false,
): DaemonState {
  if (!report.placed) return { kind: 'notPlaced' };
  if (workspace?.display_state === 'restarting') return { kind: 'restarting' };
  if (workspace && WORKSPACE_DOWN.has(workspace.display_state))
    return { kind: 'workspaceDown', state: workspace.display_state };
  if (nothingToServe && report.apply_status !== 'failed') return { kind: 'nothingToServe' };
  if (report.live === null) return { kind: 'waiting' };
  if (report.live) return { kind: 'serving' };
  if (report.apply_status === 'failed')
    return { kind: 'failed', reason: report.reason ?? report.error ?? null };
  return { kind: 'notServing', reason: report.reason };
}

/** A driver's report out of the service's status: not reported yet until the node names it. */
export function driverReport(status: ServiceStatusDetail, driver: string): DaemonReport {
  const entry = status.drivers.find((candidate) => candidate.driver === driver);
  return {
    placed: status.placed,
    live: entry ? entry.live : null,
    reason: entry?.reason ?? null,
    apply_status: status.apply_status,
    error: status.last_error,
  };
}

/** The service's status, shared with the overview's node card (one request for both). */
export function useDriverReport(serviceId: string, driver: string) {
  const status = useQuery({
    queryKey: workspaceKeys.status(serviceId),
    queryFn: () => serviceLifecycleApi.status(serviceId),
    refetchInterval: (query) => whileApplying(query.state.data && [query.state.data]),
  });
  return { ...status, data: status.data && driverReport(status.data, driver) };
}

/** A tab's own words for a state (Samba keeps its "shares are served at this address"). */
export type DaemonWords = Partial<Record<DaemonState['kind'], (reason: string | null) => string>>;

export function DaemonStateText({
  state,
  name,
  words,
}: {
  state: DaemonState;
  name: string;
  words?: DaemonWords;
}) {
  const { t } = useTranslation('workspace');
  const reason = 'reason' in state ? state.reason : null;
  const own = words?.[state.kind];
  if (own) return own(reason);
  switch (state.kind) {
    case 'notPlaced':
      return t('daemon.stateNotPlaced');
    case 'waiting':
      return t('daemon.stateWaiting');
    case 'serving':
      return t('daemon.stateServing', { name });
    case 'restarting':
      return t('daemon.stateRestarting');
    case 'workspaceDown':
      return t('daemon.stateWorkspaceDown', { state: t(`serviceState.${state.state}`) });
    case 'nothingToServe':
      return t('daemon.stateNothingToServe', { name });
    case 'notServing':
      return reason
        ? t('daemon.stateNotServingReason', { name, reason })
        : t('daemon.stateNotServing', { name });
    case 'failed':
      return reason ? t('daemon.stateFailedReason', { name, reason }) : t('daemon.stateFailed', { name });
  }
}

interface DaemonStatusCardViewProps {
  title: string;
  /** The daemon as the reader knows it: "Samba". */
  name: string;
  /** What the node reported (a query's state: useDriverReport, or a tab's own status). */
  status: { data: DaemonReport | undefined; isPending: boolean; isError: boolean };
  words?: DaemonWords;
  /** Facts of its own above "Serving" (Samba's address). */
  facts?: readonly Fact[];
  /** Buttons beside the title (reload). */
  actions?: ReactNode;
  /** What those buttons said (reloaded, or why not). */
  notices?: ReactNode;
  /** Prefix of the test ids: `<testId>-server`, `-status`, `-live`, `-apply`. */
  testId: string;
  /** Nothing is set up for it to serve yet (no shares, no VPN users, no exports). */
  nothingToServe?: boolean;
}

type DaemonStatusCardProps = DaemonStatusCardViewProps & {
  /**
   * A Reload button (once placed) that sends the daemon's configuration again, and what it said:
   * `<testId>-reload`, `-reload-done`, `-reload-error`.
   */
  reload?: () => Promise<unknown>;
};

export function DaemonStatusCard({ reload, ...props }: DaemonStatusCardProps) {
  return reload ? <ReloadableCard reload={reload} {...props} /> : <DaemonStatusCardView {...props} />;
}

function ReloadableCard({
  reload,
  actions,
  notices,
  ...props
}: DaemonStatusCardViewProps & { reload: () => Promise<unknown> }) {
  const { t } = useTranslation('workspace');
  const reloading = useWorkspaceMutation(reload);
  return (
    <DaemonStatusCardView
      {...props}
      actions={
        <>
          <button
            type="button"
            className="btn btn--secondary"
            disabled={reloading.isPending || !props.status.data?.placed}
            onClick={() => reloading.mutate(undefined)}
            data-testid={`${props.testId}-reload`}
          >
            {reloading.isPending ? t('daemon.reloading') : t('daemon.reload')}
          </button>
          {actions}
        </>
      }
      notices={
        <>
          {reloading.isSuccess && (
            <FormAlert tone="success" testId={`${props.testId}-reload-done`}>
              {t('daemon.reloaded', { name: props.name })}
            </FormAlert>
          )}
          {reloading.isError && (
            <OperationError
              error={reloading.error}
              failure={t('daemon.reloadFailed', { name: props.name })}
              testId={`${props.testId}-reload-error`}
            />
          )}
          {notices}
        </>
      }
    />
  );
}

function DaemonStatusCardView({
  title,
  name,
  status,
  words,
  facts = [],
  actions,
  notices,
  testId,
  nothingToServe,
}: DaemonStatusCardViewProps) {
  const { t } = useTranslation('workspace');
  // The workspace as the page's header shows it, when the card is on a service's page.
  const workspace = useOutletContext<ServiceDetailContext | undefined>()?.service;
  const report = status.data;
  const state = report && daemonState(report, workspace, nothingToServe);
  return (
    <section
      className="card resource-section"
      aria-labelledby={`${testId}-server-title`}
      data-testid={`${testId}-server`}
    >
      <div className="resource-section__head">
        <h2 id={`${testId}-server-title`} className="resource-section__title">
          {title}
        </h2>
        {actions}
      </div>
      {notices}
      {status.isPending && (
        <p className="text-muted" role="status">
          {t('resource.loading')}
        </p>
      )}
      {status.isError && (
        <OperationError
          error={null}
          failure={t('daemon.statusFailed', { name })}
          testId={`${testId}-status-error`}
        />
      )}
      {report && (
        <dl className="detail-list" data-testid={`${testId}-status`}>
          {facts.map((fact) => (
            <FactRow key={fact.label} fact={fact} />
          ))}
          <div>
            <dt>{t('daemon.serving')}</dt>
            <dd data-testid={`${testId}-live`} data-state={state?.kind}>
              {state && <DaemonStateText state={state} name={name} words={words} />}
            </dd>
          </div>
          <div>
            <dt>{t('daemon.changes')}</dt>
            <dd>
              <ApplyStatusBadge
                status={report.apply_status}
                error={report.error}
                testId={`${testId}-apply`}
              />
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
