// Services (workspaces) as the owner sees them (spec service-management §3 "Service").
import { z } from 'zod';

export const SERVICE_STATUSES = [
  'awaitingPayment',
  'processing',
  'resourcePending',
  'failed',
  'active',
  'suspended',
  'quarantined',
  'cancelled',
  'terminated',
  'expired',
] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];

export const serviceSummarySchema = z.object({
  id: z.string(),
  order_id: z.string(),
  name: z.string(),
  plan: z.string(),
  status: z.enum(SERVICE_STATUSES),
  valid_until: z.string(),
  /** Null until the service is placed on a node. */
  ip_address: z.string().nullable(),
  disk_space: z.number().int(),
  /** Bytes in use and files stored; null until the node has reported them. */
  disk_usage: z.number().int().nullable(),
  file_usage: z.number().int().nullable(),
  users_active: z.number().int(),
  users_total: z.number().int(),
  groups: z.number().int(),
  shares: z.number().int(),
  /** Minor units, before VAT. */
  monthly_price: z.number().int(),
  /** Seconds since the workspace last started; null while it is not running. */
  uptime: z.number().int().nullable(),
});
export type ServiceSummary = z.infer<typeof serviceSummarySchema>;

export const servicesOverviewSchema = z.object({ services: z.array(serviceSummarySchema) });
