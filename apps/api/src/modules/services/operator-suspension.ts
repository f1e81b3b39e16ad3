// Support's suspension of a customer (`npm run ops -- customers suspend|unsuspend`): the
// lifecycle's `suspend` (active → suspended) and `reactivate` (suspended → active) transitions,
// which had no caller. What a suspended workspace's node does is the lifecycle's (workspaceState:
// stopped, data kept); each transition is a new generation, so the node picks it up at its next
// pull.
//
// Which suspensions were the operator's is kept in the activity log, the one record of who did
// what: each operator suspension writes an entry on its service marked `by: operator`,
// `suspended: true`. Unsuspending reactivates a service only while that entry is the latest
// status change it had (no entry of ours since its status last changed means something else put
// it where it is), so a service suspended for another reason, or one that has expired meanwhile,
// is left alone. The entries are `service suspended` (with support's reason, shown to the
// customer) and `service reactivated`.
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import { createServicesQueries, type ServiceRow } from './services.queries.ts';

export interface OperatorSuspensionDeps {
  db: Db;
  activity: Pick<ActivityService, 'record' | 'listForService'>;
  /** Asks the node's agent to pull now (it polls anyway; a CLI process has none to wake). */
  wakeNode?: (nodeId: string) => void;
  now: () => Date;
}

/** How far back a service's log is read for the operator's suspension entry. */
const SUSPENSION_LOOKBACK = 200;

/**
 * Moves one service by `transition` and records, in the same transaction, that an operator did
 * it; the node is woken after the commit. Undefined when the lifecycle refuses the transition
 * from the service's status (nothing is recorded).
 */
async function moveAsOperator(
  deps: OperatorSuspensionDeps,
  serviceId: string,
  transition: 'suspend' | 'reactivate' | 'cancel',
  entry: {
    action: 'service suspended' | 'service reactivated' | 'service cancelled';
    tone: 'warning' | 'success';
    details: object;
  },
): Promise<ServiceRow | undefined> {
  const row = await inTransaction(deps.db, async (tx) => {
    const moved = await createServicesQueries(tx).transition(serviceId, transition, deps.now());
    if (!moved) return undefined;
    await deps.activity.record(
      {
        accountId: moved.accountId,
        serviceId: moved.id,
        ...entry,
        details: { by: 'operator', ...entry.details },
      },
      tx,
    );
    return moved;
  });
  if (row?.nodeId) deps.wakeNode?.(row.nodeId);
  return row;
}

/** Suspends one service (active → suspended) as the operator's; undefined when it was not active. */
export function suspendService(
  deps: OperatorSuspensionDeps,
  serviceId: string,
  reason: string | null,
): Promise<ServiceRow | undefined> {
  return moveAsOperator(deps, serviceId, 'suspend', {
    action: 'service suspended',
    tone: 'warning',
    details: { suspended: true, ...(reason ? { reason } : {}) },
  });
}

/** Reactivates one service (suspended → active) as the operator's; undefined when not suspended. */
export function reactivateService(
  deps: OperatorSuspensionDeps,
  serviceId: string,
): Promise<ServiceRow | undefined> {
  return moveAsOperator(deps, serviceId, 'reactivate', {
    action: 'service reactivated',
    tone: 'success',
    details: {},
  });
}

/**
 * Ends a service with its payment refunded (`ops payments refund … --end-service`): the
 * lifecycle's `cancel`, as the owner's cancel makes it (access ends now, the data is kept
 * CANCELLED_RETENTION_DAYS and then deleted by the sweep), recorded as the operator's. Asking
 * again changes nothing: `ended: false` with the status it has (cancelled, terminated, …).
 */
export async function endServiceAsOperator(
  deps: OperatorSuspensionDeps,
  serviceId: string,
  details: { reason: string | null; invoice: string; creditNote: string | null },
): Promise<{ ended: boolean; service: ServiceRow | undefined }> {
  const moved = await moveAsOperator(deps, serviceId, 'cancel', {
    action: 'service cancelled',
    tone: 'warning',
    details: {
      refunded: true,
      invoice: details.invoice,
      ...(details.creditNote ? { credit_note: details.creditNote } : {}),
      ...(details.reason ? { reason: details.reason } : {}),
    },
  });
  if (moved) return { ended: true, service: moved };
  return { ended: false, service: await createServicesQueries(deps.db).findById(serviceId) };
}

/** Whether the service's current suspension is the operator's (see the top of this file). */
export async function suspendedByOperator(
  deps: Pick<OperatorSuspensionDeps, 'activity'>,
  service: Pick<ServiceRow, 'id' | 'accountId' | 'status' | 'statusChangedAt'>,
): Promise<boolean> {
  if (service.status !== 'suspended') return false;
  const entries = await deps.activity.listForService(service.accountId, service.id, SUSPENSION_LOOKBACK);
  return entries.some(
    (entry) =>
      entry.createdAt.getTime() >= service.statusChangedAt.getTime() &&
      entry.details.by === 'operator' &&
      entry.details.suspended === true,
  );
}

export interface AccountSuspension {
  /** The services this call moved. */
  changed: ServiceRow[];
  /** The account's other services, with their status, untouched. */
  untouched: Array<{ id: string; name: string; status: ServiceRow['status'] }>;
}

/** Suspends every active service of the account. */
export async function suspendAccount(
  deps: OperatorSuspensionDeps,
  accountId: string,
  reason: string | null,
): Promise<AccountSuspension> {
  const result: AccountSuspension = { changed: [], untouched: [] };
  for (const service of await createServicesQueries(deps.db).listForAccount(accountId)) {
    const moved = service.status === 'active' ? await suspendService(deps, service.id, reason) : undefined;
    if (moved) result.changed.push(moved);
    else result.untouched.push({ id: service.id, name: service.name, status: service.status });
  }
  return result;
}

/** Reactivates exactly the account's services whose current suspension is the operator's. */
export async function unsuspendAccount(
  deps: OperatorSuspensionDeps,
  accountId: string,
): Promise<AccountSuspension> {
  const result: AccountSuspension = { changed: [], untouched: [] };
  for (const service of await createServicesQueries(deps.db).listForAccount(accountId)) {
    const moved = (await suspendedByOperator(deps, service))
      ? await reactivateService(deps, service.id)
      : undefined;
    if (moved) result.changed.push(moved);
    else result.untouched.push({ id: service.id, name: service.name, status: service.status });
  }
  return result;
}
