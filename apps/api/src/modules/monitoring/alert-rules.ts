// When an alert is wanted, as pure functions of what the API knows. Each evaluation decides a set
// of kinds: what it wants of those kinds is raised (once: an open alert stays as it is), and
// every open alert of those kinds it no longer wants is cleared. A report decides the disk, the
// daemons and the VPN users; the minute's sweep decides the node, the expiry and the backups.
import {
  DISK_ALERT_PERCENT,
  EXPIRY_ALERT_DAYS,
  RESTART_ALERT_STARTS,
  type AlertKind,
  type AlertLevel,
  type DriverStatus,
} from '@debesis/contract';

export interface WantedAlert {
  kind: AlertKind;
  level: AlertLevel;
  /** '' for the whole service. */
  subject: string;
  params: Record<string, string | number>;
}

export interface AlertDecision {
  /** The kinds this evaluation decides (those it could judge: no disk facts, no disk decision). */
  kinds: AlertKind[];
  wanted: WantedAlert[];
}

/** Disk use past 80 % is a warning, past 90 % critical: two alerts, each raised and cleared alone. */
export function diskAlerts(usedBytes: number, sizeBytes: number): AlertDecision {
  const percent = sizeBytes > 0 ? (usedBytes / sizeBytes) * 100 : 0;
  const wanted: WantedAlert[] = [];
  const params = { percent: Math.round(percent), used_bytes: usedBytes, size_bytes: sizeBytes };
  if (percent >= DISK_ALERT_PERCENT.warning)
    wanted.push({ kind: 'disk_warning', level: 'warning', subject: '', params });
  if (percent >= DISK_ALERT_PERCENT.critical)
    wanted.push({ kind: 'disk_critical', level: 'critical', subject: '', params });
  return { kinds: ['disk_warning', 'disk_critical'], wanted };
}

/**
 * When a daemon's start was asked for: within `slackMs` (the node's clock against the API's, a
 * daemon brought up just after the node reported) of an apply the owner, a plan change or a
 * status change caused, from asking until the node applied it, or `openMs` while it has not. The
 * owner's stop, start and restart and a plan change restart daemons on purpose: no alarm, no mail.
 */
export const EXPECTED_START_WINDOW = { slackMs: 2 * 60_000, openMs: 5 * 60_000 } as const;

/**
 * A daemon that should serve and does not is down (critical); one that started
 * RESTART_ALERT_STARTS times or more within the last minutes (`recentStarts`, only the starts
 * nobody asked for: EXPECTED_START_WINDOW) keeps restarting.
 */
export function daemonAlerts(
  drivers: readonly DriverStatus[],
  recentStarts: ReadonlyMap<string, number>,
): AlertDecision {
  const wanted: WantedAlert[] = [];
  for (const driver of drivers) {
    if (driver.serving === false)
      wanted.push({
        kind: 'daemon_down',
        level: 'critical',
        subject: driver.driver,
        params: { daemon: driver.driver, ...(driver.reason ? { reason: driver.reason.slice(0, 200) } : {}) },
      });
  }
  for (const [daemon, starts] of recentStarts) {
    if (starts >= RESTART_ALERT_STARTS)
      wanted.push({
        kind: 'daemon_restarting',
        level: 'warning',
        subject: daemon,
        params: { daemon, starts },
      });
  }
  return { kinds: ['daemon_down', 'daemon_restarting'], wanted };
}

/** Each VPN user the node has cut off for this month's traffic. */
export function vpnAlerts(overLimit: readonly string[]): AlertDecision {
  return {
    kinds: ['vpn_over_limit'],
    wanted: overLimit.map((user) => ({
      kind: 'vpn_over_limit',
      level: 'warning',
      subject: user,
      params: { user },
    })),
  };
}

const DAY_MS = 86_400_000;

/** A service ending within EXPIRY_ALERT_DAYS (critical within 3 days), while it is active. */
export function expiryAlert(validUntil: Date, now: Date): WantedAlert | undefined {
  const left = validUntil.getTime() - now.getTime();
  if (left > EXPIRY_ALERT_DAYS * DAY_MS || left < 0) return undefined;
  const days = Math.ceil(left / DAY_MS);
  return {
    kind: 'service_expiring',
    level: days <= 3 ? 'critical' : 'warning',
    subject: '',
    params: { days, valid_until: validUntil.toISOString() },
  };
}

/**
 * Alerts the owner is mailed about when raised. Not the expiry (the lifecycle's reminders mail
 * it) nor a failed backup (the backups mail it, once per run of failures): one mail per cause.
 */
export const MAILED_ALERT_KINDS: ReadonlySet<AlertKind> = new Set([
  'disk_warning',
  'disk_critical',
  'daemon_down',
  'daemon_restarting',
  'node_unreachable',
  'vpn_over_limit',
  'bandwidth_warning',
  'bandwidth_exhausted',
]);
