// When an activity entry happened, as the spec words it (§9): "just now" under a minute, then
// minutes, hours, and days up to 6 days, then the full date. Pure: the clock and the language are
// arguments, so it reads the same in a test as on screen.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** Up to this many whole days the time is relative; from the next day on it is the date. */
export const RELATIVE_DAYS_MAX = 6;

/** The formatting locale of an interface language: en-US or lt-LT (architecture "Data"). */
export function localeOf(language: string): string {
  return language.startsWith('lt') ? 'lt-LT' : 'en-US';
}

/** The full date and time, in the reader's language and time zone. */
export function formatDateTime(value: Date, language: string): string {
  return new Intl.DateTimeFormat(localeOf(language), { dateStyle: 'medium', timeStyle: 'short' }).format(
    value,
  );
}

/**
 * `seconds`: under a minute, the seconds ("12 seconds ago") rather than "just now", for times that
 * matter in seconds (how far a second copy trails its service); under a second it is still
 * "just now".
 */
export function formatRelativeTime(
  value: string | Date,
  options: { now: Date; language: string; justNow: string; seconds?: boolean },
): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return typeof value === 'string' ? value : '';
  // A clock a little ahead of ours still reads "just now", never "in 5 seconds".
  const elapsed = Math.max(0, options.now.getTime() - at.getTime());
  const relative = new Intl.RelativeTimeFormat(localeOf(options.language), { numeric: 'always' });
  if (elapsed < MINUTE_MS) {
    const seconds = Math.floor(elapsed / 1000);
    return options.seconds === true && seconds > 0 ? relative.format(-seconds, 'second') : options.justNow;
  }
  if (elapsed < HOUR_MS) return relative.format(-Math.floor(elapsed / MINUTE_MS), 'minute');
  if (elapsed < DAY_MS) return relative.format(-Math.floor(elapsed / HOUR_MS), 'hour');
  const days = Math.floor(elapsed / DAY_MS);
  if (days <= RELATIVE_DAYS_MAX) return relative.format(-days, 'day');
  return formatDateTime(at, options.language);
}
