// Calendar months for paid periods, renewals, invoices and retention: one rule everywhere, in UTC.
//
// A month later keeps the day of the month when that month has it and clamps to its last day when it
// does not: 31 January + 1 month is 28 February (29 in a leap year), never 3 March. The arithmetic is
// date-fns' (maintained, tested at month ends and leap days); UTCDate makes it count in UTC, not in
// the server's or the browser's time zone, so the API and the web app agree to the millisecond.
import { UTCDate } from '@date-fns/utc';
import { addMonths as addCalendarMonths } from 'date-fns';

/** The same UTC day and time `months` calendar months later (negative: earlier), clamped to the month's end. */
export function addMonths(from: Date, months: number): Date {
  if (!Number.isInteger(months)) throw new RangeError('months must be a whole number');
  if (Number.isNaN(from.getTime())) throw new RangeError('invalid date');
  return new Date(addCalendarMonths(new UTCDate(from.getTime()), months).getTime());
}

/** `months` calendar months before `at`, clamped the same way (31 March − 1 month = 28/29 February). */
export function monthsBefore(at: Date, months: number): Date {
  return addMonths(at, -months);
}
