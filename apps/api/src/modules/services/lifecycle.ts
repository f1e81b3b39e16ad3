// The service lifecycle in one table: every status change, who makes it, from which statuses it
// is allowed and the refusal (an AppError code with the spec's words) everywhere else. The
// queries make each change with a conditional update on these same `from` lists, so two
// processes racing on one service cannot both move it. The rest of this file derives what the
// node should run and what the owner sees from a status, with no I/O.
import type {
  ErrorCode,
  ExpiryWarning,
  ServiceAction,
  ServiceApplyStatus,
  ServiceDisplayReason,
  ServiceDisplayState,
  ServiceRunState,
  ServiceStatus,
  WorkspaceDesiredState,
} from '@debesis/contract';
import { AppError } from '../../http/app-error.ts';
import {
  CANCELLED_RETENTION_DAYS,
  CRITICAL_DAYS,
  DAY_MS,
  EXPIRED_GRACE_DAYS,
  EXPIRING_SOON_DAYS,
  NODE_OFFLINE_AFTER_MS,
  QUARANTINE_DAYS,
} from './lifecycle.constants.ts';

interface Rule {
  /** Statuses the change or operation is allowed from. */
  readonly from: readonly ServiceStatus[];
  /** The status it leads to; null for operations that keep the status (start, stop, …). */
  readonly to: ServiceStatus | null;
  /** What a refused attempt answers, per status; `otherwise` for the rest. */
  readonly refusal: { readonly otherwise: ErrorCode } & Partial<Record<ServiceStatus, ErrorCode>>;
}

/** Refusals of operations that need a running service: the spec's messages by status. */
const NEEDS_ACTIVE = {
  otherwise: 'service_not_active',
  expired: 'service_expired',
  quarantined: 'service_expired',
  suspended: 'service_suspended',
} as const;

export const LIFECYCLE = {
  // Made by the system.
  /** Payment done, no node has room: retried every 2 minutes, the owner is told once. */
  awaitResources: { from: ['processing'], to: 'resourcePending', refusal: { otherwise: 'not_found' } },
  /** A node has room: the service gets its node, address and id block and is set up there. */
  place: { from: ['processing', 'resourcePending'], to: 'processing', refusal: { otherwise: 'not_found' } },
  /** Its node reports the placement applied: ready, the owner is told with its address. */
  activate: { from: ['processing'], to: 'active', refusal: { otherwise: 'not_found' } },
  /** valid_until has passed: access off, data kept. */
  expire: { from: ['active', 'suspended'], to: 'expired', refusal: { otherwise: 'not_found' } },
  /** EXPIRED_GRACE_DAYS later: still restorable, deleted at terminates_at. */
  quarantine: { from: ['expired'], to: 'quarantined', refusal: { otherwise: 'not_found' } },
  /** QUARANTINE_DAYS (or CANCELLED_RETENTION_DAYS) later: the node deletes the data. */
  terminateOverdue: {
    from: ['quarantined', 'cancelled'],
    to: 'terminated',
    refusal: { otherwise: 'not_found' },
  },
  /** A paid extension of a lapsed service: access back, as it was. */
  restore: {
    from: ['expired', 'quarantined', 'suspended'],
    to: 'active',
    refusal: { otherwise: 'not_found' },
  },

  // Made by support (no route in the spec; the transitions exist so that the statuses do).
  suspend: { from: ['active'], to: 'suspended', refusal: { otherwise: 'service_not_active' } },
  reactivate: { from: ['suspended'], to: 'active', refusal: { otherwise: 'service_not_active' } },

  // Asked for by the owner.
  /** Ends the service now; its data is kept CANCELLED_RETENTION_DAYS, then deleted. */
  cancel: {
    from: ['awaitingPayment', 'failed', 'processing', 'resourcePending', 'active', 'suspended', 'expired'],
    to: 'cancelled',
    refusal: { otherwise: 'service_cannot_cancel' },
  },
  /** Ends the service and deletes its data now. Not while it is being set up, nor before it is paid. */
  terminate: {
    from: ['resourcePending', 'active', 'suspended', 'expired', 'quarantined', 'cancelled'],
    to: 'terminated',
    refusal: { otherwise: 'service_cannot_cancel' },
  },
  start: { from: ['active'], to: null, refusal: NEEDS_ACTIVE },
  /** Stopping a suspended service is allowed: it only makes sure it stays stopped once reactivated. */
  stop: { from: ['active', 'suspended'], to: null, refusal: NEEDS_ACTIVE },
  restart: { from: ['active'], to: null, refusal: NEEDS_ACTIVE },
  /**
   * Ordering another period. A service never paid has no period to extend (pay its order); a
   * cancelled or terminated one has no end left to move.
   */
  extend: {
    from: ['processing', 'resourcePending', 'active', 'suspended', 'expired', 'quarantined'],
    to: null,
    refusal: {
      otherwise: 'service_no_expiry',
      awaitingPayment: 'no_billing_period',
      failed: 'no_billing_period',
    },
  },
} as const satisfies Record<string, Rule>;

export type LifecycleStep = keyof typeof LIFECYCLE;

export function isAllowed(step: LifecycleStep, status: ServiceStatus): boolean {
  return (LIFECYCLE[step].from as readonly ServiceStatus[]).includes(status);
}

/** The statuses a step may start from, for the conditional update that makes it. */
export function fromStatuses(step: LifecycleStep): ServiceStatus[] {
  return [...LIFECYCLE[step].from];
}

export function refusalFor(step: LifecycleStep, status: ServiceStatus): ErrorCode {
  const refusal: Rule['refusal'] = LIFECYCLE[step].refusal;
  return refusal[status] ?? refusal.otherwise;
}

/** Throws the step's refusal unless the step is allowed from `status`. */
export function assertAllowed(step: LifecycleStep, status: ServiceStatus): void {
  if (!isAllowed(step, status)) throw new AppError(refusalFor(step, status));
}

export interface LifecycleView {
  status: ServiceStatus;
  runState: ServiceRunState;
  nodeId: string | null;
  generation: number;
  observedGeneration: number;
  lastError: string | null;
  validUntil: Date;
  statusChangedAt: Date;
}

/** What the node should do with the workspace's storage and daemons. */
export function workspaceState(
  service: Pick<LifecycleView, 'status' | 'runState'>,
): WorkspaceDesiredState['state'] {
  switch (service.status) {
    case 'active':
      return service.runState;
    case 'processing':
    case 'resourcePending':
      return 'running';
    case 'terminated':
      return 'removed';
    case 'awaitingPayment':
    case 'failed':
    case 'suspended':
    case 'expired':
    case 'quarantined':
    case 'cancelled':
      return 'stopped';
  }
}

/** What the owner's view of a service is made of: its status, run state and its node's word. */
export interface DisplayView extends Pick<LifecycleView, 'status' | 'runState' | 'lastError'> {
  /** Its node reports a daemon of it down. */
  notServing?: boolean;
  /** The generation carrying the owner's last restart, and the one its node has applied. */
  restartGeneration?: number | null;
  observedGeneration?: number;
  /** When its node last reported on it, and when its daemons last started (null: not running). */
  reportedAt?: Date | null;
  startedAt?: Date | null;
}

export interface Display {
  state: ServiceDisplayState;
  reason: ServiceDisplayReason | null;
}

/**
 * The owner's view of a service (one model for the list, the header and the overview). An active
 * service the owner runs is `running` only while its node reports its daemons serving: `offline`
 * while the node reports one down or has stopped reporting (nothing serves it, whatever was asked),
 * `degraded` while it serves but the node could not apply the latest change (a disk resize
 * refused…), `active` while no daemon has been reported started yet (being started, or a node
 * that only renders). The status never says running while nothing serves.
 */
function plain(state: ServiceDisplayState): Display {
  return { state, reason: null };
}

export function display(service: DisplayView, now: Date): Display {
  switch (service.status) {
    case 'processing':
      return plain('preparing');
    case 'resourcePending':
      return plain('waitingForResources');
    case 'active': {
      if (service.runState === 'stopped') return plain('stopped');
      // Its daemons are down on purpose until the node applies the restart: not offline.
      if (
        service.restartGeneration != null &&
        service.observedGeneration !== undefined &&
        service.observedGeneration < service.restartGeneration
      )
        return plain('restarting');
      if (service.notServing) return { state: 'offline', reason: 'not_serving' };
      const reported = service.reportedAt;
      if (reported && now.getTime() - reported.getTime() >= NODE_OFFLINE_AFTER_MS)
        return { state: 'degraded', reason: 'node_silent' };
      if (service.lastError) return { state: 'degraded', reason: 'change_not_applied' };
      return plain(service.startedAt ? 'running' : 'active');
    }
    case 'suspended':
    case 'expired':
    case 'quarantined':
      return plain('locked');
    case 'awaitingPayment':
    case 'failed':
    case 'cancelled':
    case 'terminated':
      return plain(service.status);
  }
}

export function displayState(service: DisplayView, now: Date): ServiceDisplayState {
  return display(service, now).state;
}

/**
 * The actions the owner can take now, for the page to offer (the rest are disabled): those the
 * lifecycle allows from the status, where start, stop and restart also change something (start a
 * stopped service, stop or restart a running one). Paying again is for an unpaid service.
 */
export function availableActions(service: Pick<LifecycleView, 'status' | 'runState'>): ServiceAction[] {
  const running = service.runState === 'running';
  const offered: Record<ServiceAction, boolean> = {
    start: isAllowed('start', service.status) && !running,
    stop: isAllowed('stop', service.status) && running,
    restart: isAllowed('restart', service.status) && running,
    'retry-payment': service.status === 'awaitingPayment' || service.status === 'failed',
    extend: isAllowed('extend', service.status),
    cancel: isAllowed('cancel', service.status),
    terminate: isAllowed('terminate', service.status),
  };
  return (Object.keys(offered) as ServiceAction[]).filter((action) => offered[action]);
}

/**
 * Whether the node runs what was last asked: applied once the observed generation reaches the
 * desired one without an error, failed while the node reports an error, applying otherwise
 * (also while no node has it yet). A terminated service released by its node is applied.
 */
export function applyStatus(
  service: Pick<LifecycleView, 'status' | 'nodeId' | 'generation' | 'observedGeneration' | 'lastError'>,
): ServiceApplyStatus {
  if (!service.nodeId) return service.status === 'terminated' ? 'applied' : 'applying';
  if (service.lastError) return 'failed';
  return service.observedGeneration >= service.generation ? 'applied' : 'applying';
}

/** Statuses in which the paid period is still running (or about to start). */
const IN_PERIOD: readonly ServiceStatus[] = ['processing', 'resourcePending', 'active', 'suspended'];

/** Whole days until valid_until, rounded up; 0 once passed; null when the service has ended. */
export function daysLeft(service: Pick<LifecycleView, 'status' | 'validUntil'>, now: Date): number | null {
  if (service.status === 'cancelled' || service.status === 'terminated') return null;
  return Math.max(0, Math.ceil((service.validUntil.getTime() - now.getTime()) / DAY_MS));
}

export function expiryWarning(
  service: Pick<LifecycleView, 'status' | 'validUntil'>,
  now: Date,
): ExpiryWarning | null {
  if (!IN_PERIOD.includes(service.status)) return null;
  const days = daysLeft(service, now);
  if (days === null) return null;
  if (days <= CRITICAL_DAYS) return 'critical';
  if (days <= EXPIRING_SOON_DAYS) return 'expiring_soon';
  return null;
}

/** When an expired service is quarantined. */
export function quarantineAt(validUntil: Date): Date {
  return new Date(validUntil.getTime() + EXPIRED_GRACE_DAYS * DAY_MS);
}

/** When the data of a lapsed (or cancelled) service is deleted; null when none is planned. */
export function terminatesAt(
  service: Pick<LifecycleView, 'status' | 'validUntil' | 'statusChangedAt'>,
): Date | null {
  switch (service.status) {
    case 'expired':
    case 'quarantined':
      return new Date(service.validUntil.getTime() + (EXPIRED_GRACE_DAYS + QUARANTINE_DAYS) * DAY_MS);
    case 'cancelled':
      return new Date(service.statusChangedAt.getTime() + CANCELLED_RETENTION_DAYS * DAY_MS);
    default:
      return null;
  }
}

/**
 * Seconds since the daemons started, while the service serves (running, or degraded by a change
 * not applied); none while its node is silent, since nobody can tell whether it still serves.
 */
export function uptimeSeconds(service: DisplayView, now: Date): number | null {
  const { state, reason } = display(service, now);
  const serves = state === 'running' || (state === 'degraded' && reason !== 'node_silent');
  if (!service.startedAt || !serves) return null;
  return Math.max(0, Math.floor((now.getTime() - service.startedAt.getTime()) / 1000));
}
