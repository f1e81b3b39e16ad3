// The workspace change pipeline: how every workspace feature (users and groups, Samba; VPN, NFS
// and FTP next) changes a service, the same way every time (ARCHITECTURE "Desired state and the
// agent"):
//   1. the owner's service or 404; a service that is not running its paid time refuses changes;
//   2. one transaction: generation + 1 first (its row lock serialises the changes of one
//      service, so limits, names and id offsets are checked against a stable picture), then the
//      change, which stamps the generation on every row it touched, then its activity entries:
//      a change is recorded exactly when it is committed;
//   3. after the commit: a wake-up of the node.
import type { FastifyBaseLogger } from 'fastify';
import { AppError, notFound } from '../../http/app-error.ts';
import type { Db } from '../../db/database.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import type { ActivityAction, ActivityInput, ActivityTone } from '../activity/activity.service.ts';
import { createWorkspaceRows, type ServiceRow } from '../services/workspace-rows.ts';

/** Statuses whose workspace may change: paid and within its time (placed or waiting to be). */
const CHANGEABLE = new Set<ServiceRow['status']>(['processing', 'resourcePending', 'active']);

export interface ChangeMeta {
  ip: string | null;
}

export interface ActivityNote {
  action: ActivityAction;
  tone: ActivityTone;
  details?: Record<string, unknown>;
}

export interface ChangeContext {
  /** The transaction: use only this handle until `work` returns. */
  tx: Tx;
  generation: number;
  service: ServiceRow;
  at: Date;
}

export type ChangeOutcome<T> =
  | { result: T; activity: ActivityNote[] }
  /** Nothing to change: the transaction is rolled back (generation included), nobody is woken. */
  | { unchanged: T };

/** A node to wake so it pulls the desired state now; it also polls, so a failed wake-up is harmless. */
export type WakeNode = (serviceId: string) => Promise<void> | void;

/** Writes an activity entry on the handle it is given: the change's transaction. */
export type RecordActivity = (tx: Tx, entry: ActivityInput) => Promise<void>;

/** Thrown out of the transaction to roll it back; carries the answer. */
class Unchanged<T> extends Error {
  constructor(readonly result: T) {
    super('unchanged');
  }
}

export function createWorkspaceChanges(deps: {
  db: Db;
  recordActivity: RecordActivity;
  wake?: WakeNode;
  now?: () => Date;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}) {
  const now = deps.now ?? (() => new Date());
  const services = createWorkspaceRows(deps.db);

  function refuseUnlessChangeable(service: ServiceRow, at: Date): void {
    if (service.status === 'expired' || service.status === 'quarantined' || service.validUntil <= at) {
      throw new AppError('service_expired');
    }
    if (!CHANGEABLE.has(service.status)) throw new AppError('workspace_not_changeable');
  }

  /** The owner's service; another account's (or none) is 404. */
  async function owned(accountId: string, serviceId: string): Promise<ServiceRow> {
    const service = await services.findForAccount(accountId, serviceId);
    if (!service) throw notFound();
    return service;
  }

  return {
    now,
    owned,
    /** Every service of the owner (newest first), for reads across them (monitoring's tasks). */
    listOwned: (accountId: string) => services.listForAccount(accountId),
    /**
     * Refuses a change to a service that is not paid and within its time, or not placed or waiting
     * to be (what `change` checks first): for features whose changes stay in the API (share links,
     * subusers) and so do not go through `change`.
     */
    refuseUnlessChangeable,

    async change<T>(
      accountId: string,
      serviceId: string,
      meta: ChangeMeta,
      work: (context: ChangeContext) => Promise<ChangeOutcome<NoInfer<T>>>,
    ): Promise<T> {
      const service = await owned(accountId, serviceId);
      const at = now();
      refuseUnlessChangeable(service, at);
      let result: T;
      try {
        result = await inTransaction(deps.db, async (tx) => {
          const generation = await createWorkspaceRows(tx).bumpGeneration(service.id, at);
          const done = await work({ tx, generation, service, at });
          if ('unchanged' in done) throw new Unchanged(done.unchanged);
          for (const note of done.activity) {
            await deps.recordActivity(tx, {
              accountId,
              serviceId: service.id,
              ip: meta.ip,
              action: note.action,
              tone: note.tone,
              details: note.details ?? {},
            });
          }
          return done.result;
        });
      } catch (error) {
        if (error instanceof Unchanged) return error.result as T;
        throw error;
      }
      try {
        await deps.wake?.(service.id);
      } catch (error) {
        // The node polls as well: it reaches the new generation on its next pull.
        deps.log?.warn(
          { err: error, service_id: service.id },
          'node wake-up failed; the node pulls on its next poll',
        );
      }
      return result;
    },
  };
}

export type WorkspaceChanges = ReturnType<typeof createWorkspaceChanges>;
