// A workspace's network link as the owner sees it (GET /api/v1/network/{serviceId}): who can reach
// its address, and its bandwidth this month.
//
// Bandwidth (spec: "bandwidth equals twice the disk space"): the plan's disk in GB × 2 is the
// traffic allowed per month of the billing period, in the same bytes as the disk (1 GB =
// 1024³ bytes, the storage's unit), counting both ways (what reaches the workspace and what it
// sends) on its own network link. A month of the period runs from the period's start day (the
// paid span's start, `paid_from`) to the same day of the next month. At BANDWIDTH_ALERT_PERCENT
// the owner is warned (an alert, mailed once); at the allowance the link is throttled to
// BANDWIDTH_THROTTLE_KBIT each way until the month ends (never cut: the storage stays served).
import { z } from 'zod';
import { REACHABLE_FROM } from './nodes.ts';
import { text } from './strings.ts';

/** Used past this share of the month's allowance: a warning (alert `bandwidth_warning`). */
export const BANDWIDTH_ALERT_PERCENT = 80;

export const bandwidthUsageSchema = z.object({
  /** This month of the billing period: ISO times, end exclusive. */
  period_start: text(),
  period_end: text(),
  /** The month's allowance: twice the disk space, bytes. */
  limit_bytes: z.number().int().nonnegative(),
  /** Both ways together, and each way, this month. */
  used_bytes: z.number().int().nonnegative(),
  received_bytes: z.number().int().nonnegative(),
  sent_bytes: z.number().int().nonnegative(),
  /** used / limit, whole percent (past 100 once over). */
  percent: z.number().int().nonnegative(),
  /** The link is throttled (asked of the node) until period_end. */
  throttled: z.boolean(),
  /** The rate a throttled link keeps each way, kbit/s. */
  throttle_kbit: z.number().int().positive(),
});
export type BandwidthUsage = z.infer<typeof bandwidthUsageSchema>;

export const serviceNetworkSchema = z.object({
  /**
   * Who can reach the workspace's address, as its node last said: `node_only` (clients on other
   * machines, VPN ones included, cannot connect until the node's operator sets
   * AGENT_CLIENT_ROUTES), `routes` (the blocks in client_routes can). Null: not reported yet.
   */
  reachable_from: z.enum(REACHABLE_FROM).nullable(),
  client_routes: z.array(text()),
  /**
   * The plan's address is the VPN's door only (a NAT plan, products.address): every service but
   * the VPN answers at `services_address`, inside the tunnel, so a customer connects the VPN
   * first. False: the services answer on the workspace's own address.
   */
  vpn_only: z.boolean(),
  /** Where Samba, NFS, FTP, SFTP and LDAP answer; null while the service has no node. */
  services_address: text().nullable(),
  /** When the node last said so; null: never. */
  reported_at: text().nullable(),
  /** Null while the service has no node (not placed). */
  bandwidth: bandwidthUsageSchema.nullable(),
});
export type ServiceNetwork = z.infer<typeof serviceNetworkSchema>;
