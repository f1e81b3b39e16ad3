// When something happened, in the spec's words (§9: "just now", minutes, hours, days up to 6,
// then the date; seconds where asked), the full date and time on hover and in `dateTime` for assistive technology; and
// the clock such times are read against, moved on every minute while the tab stays open.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatRelativeTime } from '../../activity/relative-time.ts';

/**
 * Now, again every `everyMs` (a minute unless a page counts seconds): relative times move on while
 * the tab stays open.
 */
export function useNow(everyMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** "5 minutes ago", the full date and time on hover; `justNow` is the tab's own words for it. */
export function RelativeTime({
  at,
  now,
  justNow,
  seconds,
  testId,
}: {
  at: string;
  now: Date;
  justNow: string;
  /** Under a minute, "12 seconds ago" rather than `justNow` (with a `now` that moves every second). */
  seconds?: boolean;
  testId?: string;
}) {
  const { i18n } = useTranslation();
  const date = new Date(at);
  return (
    <time
      dateTime={at}
      title={Number.isNaN(date.getTime()) ? undefined : formatDateTime(date, i18n.language)}
      data-testid={testId}
    >
      {formatRelativeTime(at, { now, language: i18n.language, justNow, seconds })}
    </time>
  );
}
