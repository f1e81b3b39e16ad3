// Every number that decides when a service moves on its own, in one place. The spec fixes some
// (resourcePending retried every 2 minutes, setup in 2–3 minutes); where it says "after a given
// date" we chose, the way a careful provider would: long enough for a customer back from holiday
// to extend, short enough that nobody pays for storage held for nobody. Change them here only;
// the sweep, the overview's warnings and the mails all read them from here.

import { SERVICE_CANCELLED_RETENTION_DAYS } from '@debesis/contract';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** A GB of the plan's disk space is a GiB of storage on the node. */
export const STORAGE_BYTES_PER_GB = 1024 ** 3;

/**
 * expired → quarantined: days after valid_until. While expired the data is kept and access is
 * off; an extension restores everything.
 */
export const EXPIRED_GRACE_DAYS = 7;

/**
 * quarantined → terminated: days in quarantine, after which the node deletes the data. The
 * spec's "terminated after a given date" is valid_until + EXPIRED_GRACE_DAYS + QUARANTINE_DAYS.
 */
export const QUARANTINE_DAYS = 14;

/**
 * cancelled → terminated: days a cancelled service's data is kept before the node deletes it. In
 * the contract, because the cancel confirmation names the date.
 */
export const CANCELLED_RETENTION_DAYS = SERVICE_CANCELLED_RETENTION_DAYS;

/** The overview warns "expiring soon" this many days before valid_until (and mails once). */
export const EXPIRING_SOON_DAYS = 7;

/** …and "critical" from this many days before (and mails once more). */
export const CRITICAL_DAYS = 3;

/**
 * How often services waiting for room (resourcePending), and paid services no job has placed
 * yet, are offered to the nodes again: every 2 minutes (spec §4, §9). The mail says so too.
 */
export const PLACEMENT_RETRY_MINUTES = 2;
/** The same as a pg-boss cron (UTC). */
export const PLACEMENT_RETRY_CRON = `*/${PLACEMENT_RETRY_MINUTES} * * * *`;

/**
 * How often the time sweep runs (expiry, quarantine, termination, expiry warnings). Access ends
 * at most this long after valid_until; a quarter of an hour costs one indexed query per state.
 */
export const LIFECYCLE_SWEEP_CRON = '*/15 * * * *';

/**
 * A processing service left unplaced for this long is picked up by the retry job even without a
 * placement job of its own (a job lost between the payment's commit and its enqueueing).
 */
export const UNPLACED_GRACE_MS = MINUTE_MS;

export { NODE_OFFLINE_AFTER_MS } from '../nodes/nodes.constants.ts';

/** Agent lines of a service's log older than this are deleted by the sweep. */
export const SERVICE_EVENTS_KEEP_DAYS = 90;
