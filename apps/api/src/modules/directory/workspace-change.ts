// How a workspace feature (users and groups, Samba; VPN, NFS and FTP can use it too) changes a
// service, the same way every time (ARCHITECTURE "Desired state and the agent"):
//   1. the owner's service or 404; a service that is not running its paid time refuses changes;
//   2. one transaction: generation + 1 first (its row lock serialises the changes of one
//      service, so limits, names and id offsets are checked against a stable picture), then the
//      change, which stamps the generation on every row it touched;
//   3. after the commit (on PGlite the transaction holds the only connection): the activity
//      entry and a wake-up of the node.
import type { FastifyBaseLogger } from 'fastify';
import { AppError, notFound } from '../../http/app-error.ts';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { ActivityAction, ActivityService, ActivityTone } from '../activity/activity.service.ts';
import { createServicesQueries, type ServiceRow } from '../services/services.queries.ts';

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
  tx: Db;
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

/** Thrown out of the transaction to roll it back; carries the answer. */
class Unchanged<T> extends Error {
  constructor(readonly result: T) {
    super('unchanged');
  }
}

export function createWorkspaceChanges(deps: {
  db: Db;
  activity: Pick<ActivityService, 'record'>;
  wake?: WakeNode;
  now?: () => Date;
  log?: Pick<FastifyBaseLogger, 'warn'>;
}) {
  const now = deps.now ?? (() => new Date());
  const services = createServicesQueries(deps.db);

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

    async change<T>(
      accountId: string,
      serviceId: string,
      meta: ChangeMeta,
      work: (context: ChangeContext) => Promise<ChangeOutcome<NoInfer<T>>>,
    ): Promise<T> {
      const service = await owned(accountId, serviceId);
      const at = now();
      refuseUnlessChangeable(service, at);
      let outcome: { result: T; activity: ActivityNote[] };
      try {
        outcome = await inTransaction(deps.db, async (tx) => {
          const generation = await createServicesQueries(tx).bumpGeneration(service.id, at);
          const done = await work({ tx, generation, service, at });
          if ('unchanged' in done) throw new Unchanged(done.unchanged);
          return done;
        });
      } catch (error) {
        if (error instanceof Unchanged) return error.result as T;
        throw error;
      }
      for (const note of outcome.activity) {
        await deps.activity.record({
          accountId,
          serviceId: service.id,
          ip: meta.ip,
          action: note.action,
          tone: note.tone,
          details: note.details ?? {},
        });
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
      return outcome.result;
    },
  };
}

export type WorkspaceChanges = ReturnType<typeof createWorkspaceChanges>;
