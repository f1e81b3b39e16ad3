// Whether a workspace feature's daemon serves, in plain words, for any tab: serving; not serving
// (set up and checked, not running, and why); failed (the node could not start or change it, and
// why); not needed (nothing set up for it, so it does not run on purpose); waiting for the node's
// first report; not placed on a node. The card also shows where clients connect (the address the
// tab's API status names: for a NAT plan already the VPN-side one) and who can reach it (the NAT
// plan's "connect the VPN first", the node's client routes), from the one network query, so a tab
// passes its report, its address and its rows and wires nothing of reachability itself.
//
// "Not needed" and "nothing to serve yet" (issue 36) are one state here, `notNeeded`: the agent
// stops a daemon whose feature has nothing configured or is switched off (its status reason
// `not needed: …`) and the tab says why in its own words ("no shares yet — Samba starts with the
// first share"). It is neither an alarm nor "not running": nothing is wrong and nothing is missed.
import type {
  ResourceApplyStatus,
  ServiceDisplayState,
  ServiceOverviewItem,
  ServiceStatusDetail,
} from '@debesis/contract';
import type { ReactNode } from 'react';
import { useOutletContext } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApplyStatusBadge } from '../../../components/ApplyStatusBadge.tsx';
import { useServiceNetwork } from '../../../workspace/network-api.ts';
import { nodeOnly, ReachabilityNotes } from '../network/ReachabilityNote.tsx';
import { CopyValue } from './CopyValue.tsx';
import '../../../i18n/workspace-messages.ts';
import { serviceLifecycleApi } from '../../../services/service-lifecycle-api.ts';
import { workspaceKeys } from '../../../workspace/workspace-keys.ts';
import { FormAlert } from '../../../components/form/fields.tsx';
import { useAppliedStatus, useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { FactRow, type Fact } from './ResourceCrud.tsx';
import { OperationError } from '../resource-parts.tsx';
import type { ServiceDetailContext } from '../service-context.ts';
import { BusyButton } from '../../../components/form/BusyButton.tsx';

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
  | { kind: 'notNeeded'; reason: string }
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

/** The agent's status reason for a daemon it stops on purpose (daemon-driver.ts). */
const NOT_NEEDED = /^not needed: (.*)$/;

/**
 * One daemon's line, under the workspace's own state (the API's display state, the one the
 * header, the list and the overview show): a stopped or restarting workspace serves nothing, so
 * no tab says "Yes" meanwhile. `notNeeded` is the tab's words for why its feature needs no daemon
 * (no shares, FTP switched off), or null when the owner has set something up for it; a tab that
 * does not know (undefined) takes the node's word for it.
 */
export function daemonState(
  report: DaemonReport,
  workspace?: Pick<ServiceOverviewItem, 'display_state'>,
  notNeeded?: string | null,
): DaemonState {
  if (!report.placed) return { kind: 'notPlaced' };
  if (workspace?.display_state === 'restarting') return { kind: 'restarting' };
  if (workspace && WORKSPACE_DOWN.has(workspace.display_state))
    return { kind: 'workspaceDown', state: workspace.display_state };
  if (report.apply_status !== 'failed') {
    if (notNeeded) return { kind: 'notNeeded', reason: notNeeded };
    const node = NOT_NEEDED.exec(report.reason ?? '');
    // The node still says "not needed" for what the owner has just set up: it starts it next.
    if (node && notNeeded === null) return { kind: 'waiting' };
    if (node?.[1]) return { kind: 'notNeeded', reason: node[1] };
  }
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

/** The service's status: the overview's node card and every tab's daemon card (one request for all). */
export function useServiceStatus(serviceId: string) {
  return useAppliedStatus(workspaceKeys.status(serviceId), () => serviceLifecycleApi.status(serviceId));
}

/** A driver's report out of the service's status. */
export function useDriverReport(serviceId: string, driver: string) {
  const status = useServiceStatus(serviceId);
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
    case 'notNeeded':
      return t('daemon.stateNotNeeded', { reason: state.reason });
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
  /**
   * Where clients connect, first of the facts: the address the tab's API status names (null until
   * placed), as the tab writes it (`\\\\address`, `address:port`), copyable or not.
   */
  address?: DaemonAddress;
  /** Facts of its own above "Serving" (the protocol, counts). */
  facts?: readonly Fact[];
  /** Buttons beside the title (reload). */
  actions?: ReactNode;
  /** What those buttons said (reloaded, or why not). */
  notices?: ReactNode;
  /** Prefix of the test ids: `<testId>-server`, `-status`, `-live`, `-apply`. */
  testId: string;
  /**
   * Why the feature needs no daemon now, in the tab's words ("no shares yet — Samba starts with
   * the first share"); null: something is set up for it. See daemonState.
   */
  notNeeded?: string | null;
  /**
   * Whether the card shows who can reach the address (default); off for a second card on the
   * same address (SFTP beside FTP), which still says "this machine only" in its line.
   */
  reachNotes?: boolean;
}

export interface DaemonAddress {
  label: string;
  /** The status's address; null until placed. */
  value: string | null;
  /** How clients write it; the address alone by default. */
  shown?: (address: string) => string;
  /** A copy button beside it (a host to paste into a client). */
  copy?: boolean;
  testId: string;
}

function AddressFact({ address }: { address: DaemonAddress }) {
  const { t } = useTranslation('workspace');
  const shown = address.value === null ? null : (address.shown?.(address.value) ?? address.value);
  return (
    <FactRow
      fact={{
        label: address.label,
        value:
          shown === null ? (
            t('daemon.stateNotPlaced')
          ) : address.copy ? (
            <CopyValue value={shown} what={address.label} testId={address.testId} />
          ) : (
            <code>{shown}</code>
          ),
        ...(address.copy ? {} : { testId: address.testId }),
      }}
    />
  );
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
          <BusyButton
            busy={reloading.isPending}
            label={t('daemon.reload')}
            busyLabel={t('daemon.reloading')}
            type="button"
            className="btn btn--secondary"
            disabled={!props.status.data?.placed}
            onClick={() => reloading.mutate(undefined)}
            testId={`${props.testId}-reload`}
          />
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
  address,
  facts = [],
  actions,
  notices,
  testId,
  notNeeded,
  reachNotes = true,
}: DaemonStatusCardViewProps) {
  const { t } = useTranslation('workspace');
  // The workspace as the page's header shows it, when the card is on a service's page.
  const workspace = useOutletContext<ServiceDetailContext | undefined>()?.service;
  const network = useServiceNetwork(workspace?.id ?? '', workspace !== undefined).data;
  const report = status.data;
  const state = report && daemonState(report, workspace, notNeeded);
  // Running, yet a client on another machine would time out: the line says so, not "Yes".
  const lineWords: DaemonWords | undefined = nodeOnly(network)
    ? { ...words, serving: () => t('network.servingNodeOnly', { name }) }
    : words;
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
      {reachNotes && <ReachabilityNotes network={network} testId={`${testId}-reach`} />}
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
          {address && <AddressFact address={address} />}
          {facts.map((fact) => (
            <FactRow key={fact.label} fact={fact} />
          ))}
          <div>
            <dt>{t('daemon.serving')}</dt>
            <dd data-testid={`${testId}-live`} data-state={state?.kind}>
              {state && <DaemonStateText state={state} name={name} words={lineWords} />}
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
