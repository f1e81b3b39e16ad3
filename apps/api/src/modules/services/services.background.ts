// The lifecycle's background parts, built the same way by the worker (which runs their jobs),
// the API (which follows up payments and node reports) and the tests (which run the jobs on a
// fake clock): the notifier, placement and the time sweep.
import type { ServiceStatus } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { UsersQueries } from '../users/users.queries.ts';
import { createPlacement } from './placement.ts';
import { createServiceNotifier, type ServiceNotifier } from './services.notifier.ts';
import { createServicesQueries } from './services.queries.ts';
import { createLifecycleSweep } from './sweep.ts';

export interface ServicesBackgroundDeps {
  db: Db;
  users: Pick<UsersQueries, 'findById'>;
  activity: Pick<ActivityService, 'record'>;
  sendMail: (message: MailMessage) => Promise<void>;
  /** Base of the dashboard links in mails. */
  publicUrl: string;
  wakeNode: (nodeId: string) => void;
  now: () => Date;
}

export function createServicesBackground(deps: ServicesBackgroundDeps) {
  const notifier = createServiceNotifier(deps);
  return {
    notifier,
    placement: createPlacement({ db: deps.db, notifier, wakeNode: deps.wakeNode, now: deps.now }),
    sweep: createLifecycleSweep({ db: deps.db, notifier, wakeNode: deps.wakeNode, now: deps.now }),
  };
}

export type ServicesBackground = ReturnType<typeof createServicesBackground>;

/** What a paid order did to a service, as the payment's transaction reports it after the commit. */
export interface ServiceFulfilment {
  kind: 'new' | 'extension' | 'plan_change';
  serviceId: string;
  /** An extension that brought a lapsed service back: the status it left. */
  restoredFrom: ServiceStatus | null;
  /** The span this payment bought (a new service's first period, an extension's months). */
  period?: { start: Date; end: Date };
}

/**
 * After a payment's commit: a new service gets its placement job; a restored one is recorded
 * and its node woken; a plan change wakes the node to resize the storage.
 */
export function createFulfilmentFollowUp(deps: {
  db: Db;
  notifier: Pick<ServiceNotifier, 'restored'>;
  enqueuePlacement: (serviceId: string) => Promise<void>;
  wakeNode: (nodeId: string) => void;
}) {
  const queries = createServicesQueries(deps.db);
  return async (fulfilment: ServiceFulfilment): Promise<void> => {
    if (fulfilment.kind === 'new') {
      await deps.enqueuePlacement(fulfilment.serviceId);
      return;
    }
    const service = await queries.findById(fulfilment.serviceId);
    if (!service) return;
    if (fulfilment.restoredFrom) await deps.notifier.restored(service, fulfilment.restoredFrom);
    if (service.nodeId) deps.wakeNode(service.nodeId);
  };
}

/** Wakes the node a service is placed on (for modules that change a workspace). */
export function createServiceWaker(db: Db, wakeNode: (nodeId: string) => void) {
  const queries = createServicesQueries(db);
  return async (serviceId: string): Promise<void> => {
    const service = await queries.findById(serviceId);
    if (service?.nodeId) wakeNode(service.nodeId);
  };
}
