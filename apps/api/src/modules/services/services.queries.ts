// The only SQL on services and their log. Every status change is a conditional update on the
// `from` statuses of lifecycle.ts, so two processes racing on one service cannot both move it;
// whoever gets the row back is the one who tells the owner.
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lte,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import { isUuid, type DriverStatus, type ResourceFailure, type ServiceStatus } from '@debesis/contract';
import { addMonths } from '@debesis/pricing';
import type { Db } from '../../db/database.ts';
import { jsonRows } from '../../db/json-rows.ts';
import { fromStatuses, LIFECYCLE, type LifecycleStep } from './lifecycle.ts';
import { serviceEvents, services } from './services.table.ts';

export type ServiceRow = typeof services.$inferSelect;
export type ServiceEventRow = typeof serviceEvents.$inferSelect;

/**
 * The columns the services list shows (the overview is the dashboard's first call: reading the
 * node's driver and failure lists for every service would cost more than the rest of it).
 */
const listColumns = {
  id: services.id,
  accountId: services.accountId,
  orderId: services.orderId,
  productId: services.productId,
  periodId: services.periodId,
  name: services.name,
  description: services.description,
  status: services.status,
  statusChangedAt: services.statusChangedAt,
  runState: services.runState,
  validUntil: services.validUntil,
  nodeId: services.nodeId,
  address: services.address,
  standbyNodeId: services.standbyNodeId,
  replicaTakenAt: services.replicaTakenAt,
  diskSpace: services.diskSpace,
  usersCount: services.usersCount,
  monthlyPriceMinor: services.monthlyPriceMinor,
  diskUsedBytes: services.diskUsedBytes,
  fileCount: services.fileCount,
  startedAt: services.startedAt,
  reportedAt: services.reportedAt,
  notServing: services.notServing,
  generation: services.generation,
  observedGeneration: services.observedGeneration,
  restartGeneration: services.restartGeneration,
  lastError: services.lastError,
  autoRenew: services.autoRenew,
};
export type ServiceListRow = Pick<ServiceRow, keyof typeof listColumns>;
const listRows = jsonRows(listColumns, sql`${services.createdAt} desc`);

/** Placement runs one at a time (a transaction-scoped advisory lock), on any number of workers. */
const PLACEMENT_LOCK_KEY = 727_411_001;

/** Every accepted change of the workspace: the node sees it as a new generation. */
const nextGeneration = sql`${services.generation} + 1`;

export interface Placement {
  nodeId: string;
  address: string;
  idBase: number;
}

export interface WorkspaceReportValues {
  observedGeneration: number;
  failures: ResourceFailure[];
  drivers: DriverStatus[];
  lastError: string | null;
  facts: {
    diskUsedBytes: number;
    fileCount: number;
    startedAt: Date | null;
    /** null: the node's storage has no size limit. */
    storageBytes: number | null;
  } | null;
  at: Date;
}

/** What placement never hands out again (services.queries inUseEverywhere). */
export interface InUseEverywhere {
  addresses: ReadonlySet<string>;
  idBases: ReadonlySet<number>;
}

export function createServicesQueries(db: Db) {
  // The dashboard's first call and the status poll read this list on every request: built once,
  // it skips drizzle's query building (more CPU than reading the rows) and the server's planning.
  // Its rows come back as one JSON value (db/json-rows.ts), which the driver reads in one piece.
  const listQuery = (accountId: SQLWrapper) =>
    db.select({ list: listRows.field }).from(services).where(eq(services.accountId, accountId));
  let listForAccount: ReturnType<typeof prepareListForAccount> | undefined;
  const prepareListForAccount = () =>
    listQuery(sql.placeholder('accountId')).prepare('services_list_for_account');

  /** The lifecycle step `step` on one service; the row when this call made it. */
  async function transition(
    id: string,
    step: LifecycleStep,
    at: Date,
    extra: Partial<typeof services.$inferInsert> = {},
  ): Promise<ServiceRow | undefined> {
    const to = LIFECYCLE[step].to;
    if (to === null) throw new Error(`${step} keeps the status`);
    const [row] = await db
      .update(services)
      .set({ ...extra, status: to, statusChangedAt: at, generation: nextGeneration, updatedAt: at })
      .where(and(eq(services.id, id), inArray(services.status, fromStatuses(step))))
      .returning();
    return row;
  }

  /** The step on every service it is due for (`due`), all at once; the rows it moved. */
  async function transitionAll(
    step: LifecycleStep,
    due: ReturnType<typeof and>,
    at: Date,
  ): Promise<ServiceRow[]> {
    const to = LIFECYCLE[step].to;
    if (to === null) throw new Error(`${step} keeps the status`);
    return db
      .update(services)
      .set({ status: to, statusChangedAt: at, generation: nextGeneration, updatedAt: at })
      .where(and(inArray(services.status, fromStatuses(step)), due))
      .returning();
  }

  return {
    transition,

    /** Creates the service of a paid order; the existing one when the order already has it. */
    async createForOrder(values: typeof services.$inferInsert): Promise<ServiceRow> {
      const [created] = await db.insert(services).values(values).onConflictDoNothing().returning();
      if (created) return created;
      const [existing] = await db
        .select()
        .from(services)
        .where(eq(services.orderId, values.orderId))
        .limit(1);
      if (!existing) throw new Error('service neither created nor found');
      return existing;
    },
    async findById(id: string): Promise<ServiceRow | undefined> {
      const [row] = await db.select().from(services).where(eq(services.id, id)).limit(1);
      return row;
    },
    async findForAccount(accountId: string, id: string): Promise<ServiceRow | undefined> {
      const [row] = await db
        .select()
        .from(services)
        .where(and(eq(services.id, id), eq(services.accountId, accountId)))
        .limit(1);
      return row;
    },
    /**
     * The names of the account's services among `ids`, by id (a service gone has none). An id
     * may be of any shape (the activity log keeps what it was given); only uuids are looked up.
     */
    async namesOf(accountId: string, ids: readonly string[]): Promise<Map<string, string>> {
      const wanted = [...new Set(ids)].filter((id) => isUuid(id));
      if (wanted.length === 0) return new Map();
      const rows = await db
        .select({ id: services.id, name: services.name })
        .from(services)
        .where(and(eq(services.accountId, accountId), inArray(services.id, wanted)));
      return new Map(rows.map((row) => [row.id, row.name]));
    },
    async listForAccount(accountId: string): Promise<ServiceListRow[]> {
      listForAccount ??= prepareListForAccount();
      const [result] = await listForAccount.execute({ accountId });
      return listRows.rows(result?.list ?? null);
    },
    /**
     * The list as a scalar subquery for a statement that reads it along (listRowsOf reads it), with
     * the version of the account's services rows it was read at: `[version, list]`, the list left
     * out (null) when the version is the statement's placeholder `known` (the caller still holds the
     * list of that version). A list of no services is null too, at another version.
     *
     * The version is every row's `xmin` (the transaction that wrote the row version the statement
     * sees), in id order. PostgreSQL writes a new row version for every update, by whatever
     * column, and stamps it with the writing transaction's id, which no row version it replaces
     * can carry (a transaction id is given once; the same 32-bit number comes back only after
     * ~4 billion transactions). So an insert, an update or a delete of any of the account's
     * services changes the version, and an equal version means the very rows a list of it was
     * read from. Reading it costs a visit of the rows, none of building, sending or parsing them.
     */
    listUnlessKnown(accountId: SQLWrapper): SQL<[version: string, list: unknown[][] | null]> {
      return sql`(select json_build_array(at.version, case when at.version = ${sql.placeholder('known')} then null else (${listQuery(accountId)}) end)
        from (select coalesce(string_agg(${services}.xmin::text, ',' order by ${services.id}), '') as version
          from ${services} where ${eq(services.accountId, accountId)}) as at)`;
    },
    listRowsOf(list: unknown[][] | null): ServiceListRow[] {
      return listRows.rows(list);
    },
    /**
     * Moves valid_until forward by whole months from the later of now and the current end. Bought
     * before the end, the paid span grows; after it, a new span starts now. A lapsed service
     * (expired, quarantined, suspended) is restored to active in the same update: its node runs
     * it again. Expiry reminders start over for the new end. `restoredFrom` says what it was.
     */
    async extend(
      id: string,
      months: number,
      at: Date,
      options: {
        /**
         * The months continue the paid time even when it has ended meanwhile (a renewal invoice
         * issued for that span and paid late: it is honoured as printed), unless they would end
         * before `at` too.
         */
        continuePaidTime?: boolean;
      } = {},
    ): Promise<{ service: ServiceRow; restoredFrom: ServiceStatus | null; periodStart: Date } | undefined> {
      const [row] = await db.select().from(services).where(eq(services.id, id)).limit(1).for('update');
      if (!row) return undefined;
      const running =
        row.validUntil > at || (options.continuePaidTime === true && addMonths(row.validUntil, months) > at);
      const until = addMonths(running ? row.validUntil : at, months);
      const period = {
        validUntil: until,
        paidFrom: running ? row.paidFrom : at,
        paidMonths: running ? row.paidMonths + months : months,
        expiryNotice: null,
        updatedAt: at,
      };
      // The months bought start where the paid time ended, or now when it had ended.
      const periodStart = running ? row.validUntil : at;
      const restored = await transition(id, 'restore', at, period);
      if (restored) return { service: restored, restoredFrom: row.status, periodStart };
      const [extended] = await db.update(services).set(period).where(eq(services.id, id)).returning();
      return extended ? { service: extended, restoredFrom: null, periodStart } : undefined;
    },
    /** Puts a new plan in place (the paid span stays); the node resizes the storage. */
    async changePlan(
      id: string,
      plan: { productId: string; diskSpace: number; usersCount: number; monthlyPriceMinor: number },
      at: Date,
    ): Promise<void> {
      await db
        .update(services)
        .set({ ...plan, generation: nextGeneration, updatedAt: at })
        .where(eq(services.id, id));
    },
    /**
     * Records an accepted change of the workspace: generation + 1, returned. Call it in the
     * transaction that writes the change, and store the number on the changed row, so the API
     * can tell when the node has applied it (see resourceStatus).
     */
    /** Every active service: id, account, node, end (the provider's daily backup, monitoring's sweep). */
    async listActive(): Promise<
      Array<{ id: string; accountId: string; name: string; nodeId: string | null; validUntil: Date }>
    > {
      return db
        .select({
          id: services.id,
          accountId: services.accountId,
          name: services.name,
          nodeId: services.nodeId,
          validUntil: services.validUntil,
        })
        .from(services)
        .where(eq(services.status, 'active'));
    },
    /** Services per status, and per status how many placed ones wait for their node (metrics). */
    async countByStatus(): Promise<Array<{ status: string; count: number; changesPending: number }>> {
      return db
        .select({
          status: services.status,
          count: count(),
          changesPending: count(
            sql`case when ${services.nodeId} is not null and ${services.generation} > ${services.observedGeneration} then 1 end`,
          ),
        })
        .from(services)
        .groupBy(services.status);
    },
    async bumpGeneration(id: string, at: Date): Promise<number> {
      const [row] = await db
        .update(services)
        .set({ generation: nextGeneration, updatedAt: at })
        .where(eq(services.id, id))
        .returning({ generation: services.generation });
      if (!row) throw new Error(`service ${id} not found`);
      return row.generation;
    },
    async countForOrder(orderId: string): Promise<number> {
      return (await db.select({ id: services.id }).from(services).where(eq(services.orderId, orderId)))
        .length;
    },

    // Owner's operations that keep the status.

    /** Start or stop: the node serves it or holds it; null when its status no longer allows it. */
    async setRunState(
      id: string,
      runState: ServiceRow['runState'],
      at: Date,
    ): Promise<ServiceRow | undefined> {
      const step = runState === 'running' ? 'start' : 'stop';
      const [row] = await db
        .update(services)
        .set({ runState, generation: nextGeneration, updatedAt: at })
        .where(and(eq(services.id, id), inArray(services.status, fromStatuses(step))))
        .returning();
      return row;
    },
    /** A new generation that carries a restart request (the desired state's restart_token). */
    async requestRestart(id: string, at: Date): Promise<ServiceRow | undefined> {
      const [row] = await db
        .update(services)
        .set({
          generation: nextGeneration,
          restartGeneration: nextGeneration,
          runState: 'running',
          updatedAt: at,
        })
        .where(and(eq(services.id, id), inArray(services.status, fromStatuses('restart'))))
        .returning();
      return row;
    },
    async updateSettings(
      id: string,
      values: { name?: string; description?: string; expiryReminders?: boolean; autoRenew?: boolean },
      at: Date,
    ): Promise<ServiceRow | undefined> {
      const [row] = await db
        .update(services)
        .set({ ...values, updatedAt: at })
        .where(eq(services.id, id))
        .returning();
      return row;
    },

    /**
     * Active services with automatic renewal ending in (from, until]: what the renewals job
     * (payments module) considers renewing.
     */
    async renewalsDue(
      from: Date,
      until: Date,
    ): Promise<Array<{ id: string; accountId: string; validUntil: Date }>> {
      return db
        .select({ id: services.id, accountId: services.accountId, validUntil: services.validUntil })
        .from(services)
        .where(
          and(
            eq(services.status, 'active'),
            eq(services.autoRenew, true),
            gt(services.validUntil, from),
            lte(services.validUntil, until),
          ),
        );
    },

    // Placement.

    /**
     * Paid services no node has yet: every resourcePending one, and processing ones older than
     * `processingBefore` (their own placement job should have run by then).
     */
    async unplaced(processingBefore: Date): Promise<string[]> {
      const rows = await db
        .select({ id: services.id })
        .from(services)
        .where(
          and(
            isNull(services.nodeId),
            or(
              eq(services.status, 'resourcePending'),
              and(eq(services.status, 'processing'), lte(services.statusChangedAt, processingBefore)),
            ),
          ),
        )
        .orderBy(asc(services.statusChangedAt));
      return rows.map((row) => row.id);
    },
    /** Serialises placement: call first in the placing transaction. */
    async lockPlacement(): Promise<void> {
      await db.execute(sql`select pg_advisory_xact_lock(${PLACEMENT_LOCK_KEY})`);
    },
    /** The service if it still waits for a node. */
    async findUnplaced(id: string): Promise<ServiceRow | undefined> {
      const [row] = await db
        .select()
        .from(services)
        .where(
          and(eq(services.id, id), isNull(services.nodeId), inArray(services.status, fromStatuses('place'))),
        )
        .limit(1);
      return row;
    },
    /**
     * What is placed on these nodes: addresses and id blocks taken, storage promised. A standby
     * copy counts on its node as the workspace does on its primary's (the same size, address and
     * id block), without the larger disk a plan change waits for (that waits on the primary).
     */
    async placedOn(nodeIds: string[]) {
      if (nodeIds.length === 0) return [];
      const columns = {
        id: services.id,
        address: services.address,
        idBase: services.idBase,
        diskSpace: services.diskSpace,
        diskUsedBytes: services.diskUsedBytes,
      };
      const primaries = await db
        .select({ ...columns, nodeId: services.nodeId, pendingDiskSpace: services.pendingDiskSpace })
        .from(services)
        .where(inArray(services.nodeId, nodeIds));
      const standbys = await db
        .select({ ...columns, nodeId: services.standbyNodeId })
        .from(services)
        .where(inArray(services.standbyNodeId, nodeIds));
      return [...primaries, ...standbys.map((row) => ({ ...row, pendingDiskSpace: null }))];
    },
    /**
     * Every address a service holds on any node: the nodes of a room share one pool, and a
     * standby takes over its primary's address, so an address is taken everywhere at once.
     */
    /**
     * Addresses and id blocks held on any node: a standby takes its primary's over, so neither is
     * handed out twice across the nodes.
     */
    async inUseEverywhere(): Promise<InUseEverywhere> {
      const rows = await db
        .select({ address: services.address, idBase: services.idBase })
        .from(services)
        .where(isNotNull(services.address));
      return {
        addresses: new Set(rows.flatMap((row) => (row.address ? [row.address] : []))),
        idBases: new Set(rows.flatMap((row) => (row.idBase === null ? [] : [row.idBase]))),
      };
    },
    /**
     * The larger disk a paid plan change waits for room for on the service's node (null: none
     * waits any more). Set and cleared under placement's lock, in the change's transaction.
     */
    async setPendingDisk(id: string, diskSpace: number | null, at: Date): Promise<void> {
      await db
        .update(services)
        .set({ pendingDiskSpace: diskSpace, updatedAt: at })
        .where(eq(services.id, id));
    },
    /**
     * Gives the service its node, address and id block, once; a new generation for the node.
     * Time spent waiting for room (resourcePending) is added to valid_until: the customer paid
     * for a period of service, not of waiting. (The spec is silent; this is our policy.)
     */
    async assignPlacement(id: string, placement: Placement, at: Date): Promise<ServiceRow | undefined> {
      const [row] = await db
        .update(services)
        .set({
          ...placement,
          status: 'processing',
          validUntil: sql`case when ${services.status} = 'resourcePending' then ${services.validUntil} + (${at.toISOString()}::timestamptz - ${services.statusChangedAt}) else ${services.validUntil} end`,
          statusChangedAt: sql`case when ${services.status} = 'processing' then ${services.statusChangedAt} else ${at} end`,
          generation: nextGeneration,
          updatedAt: at,
        })
        .where(
          and(eq(services.id, id), isNull(services.nodeId), inArray(services.status, fromStatuses('place'))),
        )
        .returning();
      return row;
    },
    /** processing → resourcePending, only for one no node has; the row when this call moved it. */
    async awaitResources(id: string, at: Date): Promise<ServiceRow | undefined> {
      const [row] = await db
        .update(services)
        .set({ status: 'resourcePending', statusChangedAt: at, updatedAt: at })
        .where(
          and(
            eq(services.id, id),
            isNull(services.nodeId),
            inArray(services.status, fromStatuses('awaitResources')),
          ),
        )
        .returning();
      return row;
    },

    // The time sweep: each a single conditional update over every service it is due for.

    expireDue(now: Date): Promise<ServiceRow[]> {
      return transitionAll('expire', lte(services.validUntil, now), now);
    },
    quarantineDue(validUntilBefore: Date, now: Date): Promise<ServiceRow[]> {
      return transitionAll('quarantine', lte(services.validUntil, validUntilBefore), now);
    },
    terminateDue(
      limits: { quarantinedValidUntilBefore: Date; cancelledBefore: Date },
      now: Date,
    ): Promise<ServiceRow[]> {
      return transitionAll(
        'terminateOverdue',
        or(
          and(
            eq(services.status, 'quarantined'),
            lte(services.validUntil, limits.quarantinedValidUntilBefore),
          ),
          and(eq(services.status, 'cancelled'), lte(services.statusChangedAt, limits.cancelledBefore)),
        ),
        now,
      );
    },
    /**
     * Marks the expiry reminder `notice` as sent for services of `statuses` ending in
     * (now, endsBefore] that have not had it (nor, for expiring_soon, the later critical one).
     */
    async markExpiryNotice(
      notice: 'expiring_soon' | 'critical',
      statuses: ServiceStatus[],
      now: Date,
      endsBefore: Date,
    ): Promise<ServiceRow[]> {
      const notYet =
        notice === 'critical'
          ? or(isNull(services.expiryNotice), eq(services.expiryNotice, 'expiring_soon'))
          : isNull(services.expiryNotice);
      return db
        .update(services)
        .set({ expiryNotice: notice })
        .where(
          and(
            inArray(services.status, statuses),
            gt(services.validUntil, now),
            lte(services.validUntil, endsBefore),
            notYet,
          ),
        )
        .returning();
    },

    // The node's side.

    async listForNode(nodeId: string): Promise<ServiceRow[]> {
      return db.select().from(services).where(eq(services.nodeId, nodeId)).orderBy(asc(services.createdAt));
    },
    /** Stores what the node reported on one of its services. */
    async recordReport(id: string, nodeId: string, report: WorkspaceReportValues): Promise<void> {
      await db
        .update(services)
        .set({
          observedGeneration: report.observedGeneration,
          failures: report.failures,
          drivers: report.drivers,
          notServing: report.drivers.some((driver) => driver.serving === false),
          lastError: report.lastError,
          reportedAt: report.at,
          ...(report.facts
            ? {
                diskUsedBytes: report.facts.diskUsedBytes,
                fileCount: report.facts.fileCount,
                startedAt: report.facts.startedAt,
                storageBytes: report.facts.storageBytes,
              }
            : {}),
        })
        .where(and(eq(services.id, id), eq(services.nodeId, nodeId)));
    },
    /** The report time of services whose report changed nothing else (one statement for all). */
    async touchReported(nodeId: string, ids: string[], at: Date): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(services)
        .set({ reportedAt: at })
        .where(and(eq(services.nodeId, nodeId), inArray(services.id, ids)));
    },
    /** processing → active once its node has applied everything asked so far, without error. */
    async activateApplied(id: string, nodeId: string, at: Date): Promise<ServiceRow | undefined> {
      const [row] = await db
        .update(services)
        .set({ status: 'active', statusChangedAt: at, updatedAt: at })
        .where(
          and(
            eq(services.id, id),
            eq(services.nodeId, nodeId),
            inArray(services.status, fromStatuses('activate')),
            lte(services.generation, services.observedGeneration),
            isNull(services.lastError),
          ),
        )
        .returning();
      return row;
    },
    /**
     * A terminated service whose node has deleted it: the node, address and id block are free
     * again, and it leaves that node's desired state.
     */
    async releaseRemoved(id: string, nodeId: string, at: Date): Promise<ServiceRow | undefined> {
      const [row] = await db
        .update(services)
        .set({ nodeId: null, address: null, idBase: null, updatedAt: at })
        .where(
          and(
            eq(services.id, id),
            eq(services.nodeId, nodeId),
            eq(services.status, 'terminated'),
            lte(services.generation, services.observedGeneration),
            isNull(services.lastError),
            isNotNull(services.address),
          ),
        )
        .returning();
      return row;
    },

    // The agent lines of a service's log.

    async insertEvent(event: typeof serviceEvents.$inferInsert): Promise<void> {
      await db.insert(serviceEvents).values(event);
    },
    async listEvents(serviceId: string, limit: number): Promise<ServiceEventRow[]> {
      return db
        .select()
        .from(serviceEvents)
        .where(eq(serviceEvents.serviceId, serviceId))
        .orderBy(desc(serviceEvents.createdAt))
        .limit(limit);
    },
    async pruneEvents(before: Date): Promise<void> {
      await db.delete(serviceEvents).where(lte(serviceEvents.createdAt, before));
    },
  };
}

export type ServicesQueries = ReturnType<typeof createServicesQueries>;
