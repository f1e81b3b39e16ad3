// The workspace feature registry (ARCHITECTURE "Desired state and the agent"). A workspace
// feature (users and groups, Samba; next VPN, NFS, FTP, LDAP, backups, share links) is one
// module that registers here what the rest of the API asks of every feature:
//   - its sections of a service's desired state, read from its own tables;
//   - its counts for the services overview and stats;
//   - what it holds that names a user or group of the directory (told when one is deleted);
//   - the kinds of resource failures its node driver reports;
//   - what the node observed of it (its section of a report's `features`);
//   - its routes.
// The desired state, the node reports, the overview and the composition root iterate the
// registry; none of them names a feature.
import type { ScheduledJobName } from '../../jobs/job-map.ts';
import type { ServerSecret } from '../../crypto/server-keys.ts';
import {
  inFeatureOrder,
  servicesAddress,
  type Feature,
  type FieldErrorCode,
  type PlanAddressKind,
  type ServiceFeatureCounts,
  type WorkspaceFeatureReports,
  type WorkspaceReport,
  type WorkspaceFeatureSections,
} from '@debesis/contract';
import type { NodeCalls } from '../nodes/node-calls.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database.ts';
import type { CallerAuthenticators } from '../../http/caller.ts';
import type { Tx } from '../../db/transaction.ts';
import type { RateLimiter } from '../rate-limits/rate-limits.service.ts';
import type { RecordActivity, WorkspaceChanges } from './workspace-change.ts';

/** The service a desired-state section is built for (placed: it has its id block). */
export interface DesiredContext {
  serviceId: string;
  /** First Unix id of the service's block (WORKSPACE_ID_BLOCK). */
  idBase: number;
  /** Whether its plan gives it a public address of its own (dedicated IP), not a NAT one. */
  publicAddress: boolean;
}

/** What features may ask of a service's plan. */
export interface PlanFacts {
  /** Whether the plan gives its services a public address of their own (dedicated IP, not NAT). */
  publicAddress(productId: string): Promise<boolean>;
}

/** The plan's kind of address, as the node is told it (desired state `address_kind`). */
export const addressKindOf = (publicAddress: boolean): PlanAddressKind =>
  publicAddress ? 'dedicated' : 'nat';

/**
 * Where a service's daemons but OpenVPN answer, as every status and connect field names it: the
 * contract's servicesAddress, the rule the agent binds them by (10.8.0.1 for a NAT plan). Null
 * until the service is placed.
 */
export async function servicesAddressOf(
  plans: PlanFacts,
  service: { address: string | null; productId: string },
): Promise<string | null> {
  if (service.address === null) return null;
  return servicesAddress(service.address, addressKindOf(await plans.publicAddress(service.productId)));
}

/**
 * A feature whose resources name users or groups (Samba shares, FTP access, NFS exports' owners).
 * It is told, inside the deleting transaction and before the row goes, so it can drop its
 * references and stamp what it changed with the same generation. A renamed group is told the same
 * way.
 */
export interface DirectoryDependent {
  userRemoved(
    tx: Tx,
    change: { serviceId: string; userId: string; generation: number; at: Date },
  ): Promise<void>;
  groupRemoved(
    tx: Tx,
    change: { serviceId: string; groupId: string; generation: number; at: Date },
  ): Promise<void>;
  /**
   * The group keeps its id and gid under a new name: what names it in the desired state (a
   * share's `@group`) changes, so the feature stamps those resources with the generation.
   */
  groupRenamed?(
    tx: Tx,
    change: { serviceId: string; groupId: string; generation: number; at: Date },
  ): Promise<void>;
}

/** The workspace a node reported on, when the API heard it, and the report itself. */
export interface FeatureReportContext {
  serviceId: string;
  at: Date;
  /** Its owner. */
  accountId: string;
  /** The whole report: facts and daemons' statuses beside the features' sections. */
  report: WorkspaceReport;
  /** The storage size its plan gives, bytes (the node's `facts.storage_bytes` says what it has). */
  planBytes: number;
  /**
   * Runs `task` once the report's transaction has committed: a job asked for here reads what the
   * report wrote. A task that fails is logged; what it hurried comes at its schedule anyway.
   */
  afterCommit: (task: () => Promise<void>) => void;
}

/** A section of a report's `features` (WorkspaceFeatureReports), keyed there by its feature's name. */
export type FeatureReportSection = NonNullable<WorkspaceFeatureReports[keyof WorkspaceFeatureReports]>;

type StoreAny = (tx: Tx, report: FeatureReportContext, section: FeatureReportSection) => Promise<void>;

/** A feature's stores of the report's `features`, one per key it reads, each given its own section. */
export type FeatureReportStores = {
  [Key in keyof WorkspaceFeatureReports]?: (
    tx: Tx,
    report: FeatureReportContext,
    section: NonNullable<WorkspaceFeatureReports[Key]>,
  ) => Promise<void>;
};

/** The Fastify scope a feature's routes are registered on (under /api/v1). */
export type RouteScope = Parameters<FastifyPluginAsyncZod>[0];

/** A feature's share of the plan's users (WorkspaceFeature.planUsers). */
export interface PlanUsersHeld {
  code: Extract<
    FieldErrorCode,
    'below_users_in_use' | 'below_vpn_users_in_use' | 'below_backup_clients_in_use'
  >;
  inUse(serviceId: string): Promise<number>;
}

export interface PlanUsersInUse {
  code: PlanUsersHeld['code'];
  count: number;
}

export interface WorkspaceFeature {
  /**
   * Its one id (the contract's FEATURES), as the web app's tab names it too: each feature is
   * registered once. Its driver on the node is named in NODE_DRIVERS.
   */
  readonly feature: Feature;
  /**
   * Its sections of the service's desired state (WorkspaceFeatureSections), asked only for a
   * workspace that is not being removed; a section left out means the feature is not used.
   */
  desiredSection?(service: DesiredContext): Promise<Partial<WorkspaceFeatureSections>>;
  /** Per service, its counts for the overview; a service missing from the map counts nothing. */
  counts?(serviceIds: string[]): Promise<Map<string, Partial<ServiceFeatureCounts>>>;
  /**
   * What of the plan's users it holds now (active users, VPN users), and the field error a plan
   * change below that gets: a plan may not hold fewer than any feature holds.
   */
  planUsers?: PlanUsersHeld;
  /** What it holds that names a user or group. */
  directoryDependent?: DirectoryDependent;
  /** The ResourceFailure kinds its driver reports (a failed `share`: Samba). */
  readonly failureKinds?: readonly string[];
  /**
   * Stores what the node observed of it, by the report's `features` key it reads (VPN: `vpn`'s
   * sessions and traffic; FTP: `ftp` and `sftp` sessions), each handed over only when present, in
   * a transaction of its own per workspace.
   */
  reports?: FeatureReportStores;
  /**
   * Told of every report of a workspace that is not terminated, sections or not (monitoring
   * keeps its use and daemons' starts, and raises alerts from them), before the keyed stores, in
   * the same transaction.
   */
  everyReport?(tx: Tx, report: FeatureReportContext): Promise<void>;
  /**
   * Registers its routes (prefix included); each declares its access level (docs/architecture.md
   * "Who may call a route").
   */
  routes?(api: RouteScope): Promise<void>;
  /**
   * How the callers it signs in are recognised (subusers: their sessions; the Linux-user portal:
   * its tokens), by token kind. Which routes each kind may call is http/caller.ts's decision, not
   * the feature's: the feature only says who a token belongs to, or refuses it.
   */
  callers?: Partial<CallerAuthenticators>;
}

// The node calls features get live with the nodes module that answers them.
export type { NodeCallFailureCode, NodeCalls } from '../nodes/node-calls.ts';

/** What every feature module exports: its feature, made on the shared database and change pipeline. */
export type WorkspaceFeatureFactory = (deps: WorkspaceFeatureDeps) => WorkspaceFeature;

export interface WorkspaceFeatureDeps {
  db: Db;
  changes: WorkspaceChanges;
  /** Questions to the node that runs a service (a VPN user's config). */
  nodeCalls: NodeCalls;
  /** Where the product is reached from outside (links handed out, such as a one-time config link). */
  publicUrl: string;
  plans: PlanFacts;
  /** The registered features' directory dependents (read when a user or group is deleted). */
  dependents: () => readonly DirectoryDependent[];
  /**
   * Writes an activity entry in a transaction the feature holds: what a node report tells the
   * owner (a backup failed). Changes the owner makes record theirs through `changes`.
   */
  recordActivity: RecordActivity;
  /** Counting limits shared by every API process (a share link's password tries). */
  limiter: RateLimiter;
  /**
   * The server's secrets, from which a feature derives keys of its own (share links' seals and
   * grants): the current one and, after a rotation, the previous ones (crypto/server-keys.ts).
   */
  serverSecret: ServerSecret;
  /** Whether cookies a feature sets are `Secure` (not in the embedded development mode). */
  secureCookies: boolean;
  /** BACKUP_TARGET_URL: where workspaces' backup repositories live off the nodes; unset, on each node. */
  backupTargetUrl?: string;
  /**
   * Asks the worker to run one of its scheduled jobs now rather than at its next time (a run
   * already pending answers for it): what a report tells that the job acts on (a failed backup's
   * mail) goes out in seconds, not at the next minute.
   */
  runSoon: (job: ScheduledJobName) => Promise<void>;
}

/** The counts of a service whose features count nothing (users and groups are always counted). */
export const NO_FEATURE_COUNTS: ServiceFeatureCounts = { users_active: 0, groups: 0 };

export function createFeatureRegistry(features: readonly WorkspaceFeature[]) {
  const failureOwners = new Map<string, string>();
  const names = new Set<string>();
  for (const feature of features) {
    if (names.has(feature.feature)) throw new Error(`workspace feature ${feature.feature} registered twice`);
    names.add(feature.feature);
    for (const kind of feature.failureKinds ?? []) {
      const owner = failureOwners.get(kind);
      if (owner) throw new Error(`failure kind ${kind} claimed by ${owner} and ${feature.feature}`);
      failureOwners.set(kind, feature.feature);
    }
  }
  const dependents = features.flatMap((feature) =>
    feature.directoryDependent ? [feature.directoryDependent] : [],
  );
  const callers: Partial<CallerAuthenticators> = {};
  for (const feature of features) {
    for (const [kind, authenticate] of Object.entries(feature.callers ?? {})) {
      if (kind in callers) throw new Error(`callers of kind ${kind} claimed twice (${feature.feature})`);
      Object.assign(callers, { [kind]: authenticate });
    }
  }

  return {
    features,
    dependents,
    /** The authenticators of the callers features sign in (http/caller.ts accessGuards). */
    callers,

    /** Every feature's sections of the service's desired state, merged. */
    async desiredSections(service: DesiredContext): Promise<Partial<WorkspaceFeatureSections>> {
      const sections: Partial<WorkspaceFeatureSections> = {};
      const owners = new Map<string, string>();
      for (const feature of features) {
        if (!feature.desiredSection) continue;
        const section = await feature.desiredSection(service);
        for (const key of Object.keys(section)) {
          const owner = owners.get(key);
          if (owner) throw new Error(`desired-state section ${key} given by ${owner} and ${feature.feature}`);
          owners.set(key, feature.feature);
        }
        Object.assign(sections, section);
      }
      return sections;
    },

    /** Per service, every feature's counts; every id asked for has an entry. */
    async counts(serviceIds: string[]): Promise<Map<string, ServiceFeatureCounts>> {
      const result = new Map(serviceIds.map((id) => [id, { ...NO_FEATURE_COUNTS }]));
      const counted = await Promise.all(
        features.map((feature) => (feature.counts ? feature.counts(serviceIds) : Promise.resolve(undefined))),
      );
      for (const perService of counted) {
        if (!perService) continue;
        for (const [id, counts] of perService) {
          const entry = result.get(id);
          if (entry) Object.assign(entry, counts);
        }
      }
      return result;
    },

    /** What each feature that counts the plan's users holds of them now. */
    async planUsersInUse(serviceId: string): Promise<PlanUsersInUse[]> {
      return Promise.all(
        features.flatMap(({ planUsers }) =>
          planUsers ? [planUsers.inUse(serviceId).then((count) => ({ code: planUsers.code, count }))] : [],
        ),
      );
    },

    /** Hands each feature that stores reports its section of the report's `features`, if there. */
    async storeReports(
      tx: Tx,
      report: FeatureReportContext,
      sections: WorkspaceFeatureReports,
    ): Promise<void> {
      for (const feature of features) await feature.everyReport?.(tx, report);
      for (const feature of features) {
        for (const [key, store] of Object.entries(feature.reports ?? {})) {
          const section = sections[key as keyof WorkspaceFeatureReports];
          // Each store is keyed by the section it is given (FeatureReportStores).
          if (section && store) await (store as StoreAny)(tx, report, section);
        }
      }
    },

    /** The feature that reports failures of this kind, if any. */
    featureOfFailure(kind: string): string | undefined {
      return failureOwners.get(kind);
    },
  };
}

export type FeatureRegistry = ReturnType<typeof createFeatureRegistry>;

/** Makes each feature on the shared database and change pipeline, and registers them. */
export function createWorkspaceFeatures(
  deps: Omit<WorkspaceFeatureDeps, 'dependents'>,
  factories: readonly WorkspaceFeatureFactory[],
): FeatureRegistry {
  // The directory asks for the dependents only when it deletes, after every feature is made. They
  // run (sections, counts, reports) in the features' order, not their registration file's.
  const registry: FeatureRegistry = createFeatureRegistry(
    inFeatureOrder(factories.map((create) => create({ ...deps, dependents: () => registry.dependents }))),
  );
  return registry;
}
