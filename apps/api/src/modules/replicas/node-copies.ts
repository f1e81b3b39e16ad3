// What the workspace module (desired state, reports) reads and writes of a node's other copies:
// the standbys it keeps and the copies it must delete (departures). The only way in from outside.
import type { ReplicaReport } from '@debesis/contract';
import type { Executor } from '../../db/transaction.ts';
import { createReplicaRows } from '../services/replica-rows.ts';
import type { ServiceRow } from '../services/services.queries.ts';
import { createDepartures, type DepartureRow } from './replicas.queries.ts';

export type { DepartureRow };

export function createNodeCopies(db: Executor) {
  const rows = createReplicaRows(db);
  const departures = createDepartures(db);
  return {
    standbysOn: (nodeId: string): Promise<ServiceRow[]> => rows.standbysOn(nodeId),
    departuresOf: (nodeId: string): Promise<DepartureRow[]> => departures.listForNode(nodeId),
    storeReplica: (serviceId: string, nodeId: string, replica: ReplicaReport) =>
      rows.storeReplica(serviceId, nodeId, replica),
    /** A removed node's copies still to delete: forgotten with it (how many). */
    forgetNode: (nodeId: string) => departures.forgetNode(nodeId),
    settleDeparture: (serviceId: string, nodeId: string, observed: number) =>
      departures.settle(serviceId, nodeId, observed),
  };
}
