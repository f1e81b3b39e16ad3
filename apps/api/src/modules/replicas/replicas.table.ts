import { integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAtColumn } from '../../db/columns.ts';

/**
 * Copies a node must delete (replicas.ts): the old primary after a failover or a move, a standby
 * replaced or no longer wanted. The node's desired state lists the workspace as `removed` until
 * it reports it at `generation` or later without error; then the row goes. It keeps the address,
 * id block and size it had there, since the service may have let go of them meanwhile.
 */
export const serviceDepartures = pgTable(
  'service_departures',
  {
    serviceId: uuid('service_id').notNull(),
    nodeId: uuid('node_id').notNull(),
    /** The service's generation when the node lost it: what its report must reach. */
    generation: integer('generation').notNull(),
    address: text('address').notNull(),
    idBase: integer('id_base').notNull(),
    diskSpace: integer('disk_space').notNull(),
    createdAt: createdAtColumn(),
  },
  (table) => [primaryKey({ columns: [table.serviceId, table.nodeId] })],
);
