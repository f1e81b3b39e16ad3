// When a schedule runs: its frequency and time as a cron pattern, read in the schedule's own time
// zone by croner (a maintained cron library that knows daylight-saving changes: a daily 2:00 in
// Vilnius is 00:00 UTC in winter and 23:00 UTC the day before in summer; a time that does not
// exist on the day the clocks go forward runs at the first minute that does).
import { Cron } from 'croner';
import type { BackupFrequency } from '@debesis/contract';

export interface ScheduleTime {
  frequency: BackupFrequency;
  hour: number;
  minute: number;
  /** 0 Sunday … 6 Saturday. */
  weekday: number;
  /** 1–28. */
  monthDay: number;
  timeZone: string;
}

export function cronPattern(time: ScheduleTime): string {
  switch (time.frequency) {
    case 'hourly':
      return `${time.minute} * * * *`;
    case 'daily':
      return `${time.minute} ${time.hour} * * *`;
    case 'weekly':
      return `${time.minute} ${time.hour} * * ${time.weekday}`;
    case 'monthly':
      return `${time.minute} ${time.hour} ${time.monthDay} * *`;
  }
}

/** The first time after `after` (strictly) the schedule runs. */
export function nextRunAfter(time: ScheduleTime, after: Date): Date {
  const next = new Cron(cronPattern(time), { timezone: time.timeZone, paused: true }).nextRun(after);
  // A pattern of whole fields in range always has a next run; this guards a library change.
  if (!next) throw new Error(`no next run for ${cronPattern(time)} in ${time.timeZone}`);
  return next;
}

/**
 * The provider's daily backup of a service, spread over 2:00–3:59 by its id so a node's
 * workspaces do not all start at once (the node runs them one after another anyway).
 */
export function providerBackupTime(serviceId: string): { hour: number; minute: number } {
  let hash = 0;
  for (const char of serviceId) hash = (hash * 31 + char.charCodeAt(0)) % 120;
  return { hour: 2 + Math.floor(hash / 60), minute: hash % 60 };
}
