import { bigint, boolean, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { serviceIdColumn, serviceKeyColumn } from '../services/service-columns.ts';

/**
 * A workspace's network link as its node last reported it (contract NetworkReport), and what the
 * API asks of it: one row per service, made by its first report.
 */
export const serviceNetwork = pgTable('service_network', {
  serviceId: serviceKeyColumn(),
  reachableFrom: text('reachable_from', { enum: ['node_only', 'routes'] }).notNull(),
  clientRoutes: jsonb('client_routes').$type<string[]>().notNull().default([]),
  /**
   * The node's running traffic total last taken (its counter_id and both ways): the next report's
   * growth over it is what is counted, so a report taken twice counts nothing twice.
   */
  counterId: text('counter_id'),
  counterReceived: bigint('counter_received', { mode: 'number' }).notNull().default(0),
  counterSent: bigint('counter_sent', { mode: 'number' }).notNull().default(0),
  /** The desired state's bandwidth_throttled: the month's allowance is used up. */
  throttled: boolean('throttled').notNull().default(false),
  /** The month of the billing period the row's decisions were last made in (its start). */
  periodStart: timestamp('period_start', { withTimezone: true }),
  reportedAt: timestamp('reported_at', { withTimezone: true }).notNull(),
});

/** A workspace's traffic per month of its billing period (its start), both ways. */
export const serviceTraffic = pgTable(
  'service_traffic',
  {
    serviceId: serviceIdColumn(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    receivedBytes: bigint('received_bytes', { mode: 'number' }).notNull().default(0),
    sentBytes: bigint('sent_bytes', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.serviceId, table.periodStart] })],
);
