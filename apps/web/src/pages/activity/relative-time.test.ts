import { describe, expect, it } from 'vitest';
import { formatDateTime, formatRelativeTime } from './relative-time.ts';

const NOW = new Date('2026-03-10T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const en = (value: string | Date) =>
  formatRelativeTime(value, { now: NOW, language: 'en', justNow: 'just now' });
const lt = (value: string | Date) =>
  formatRelativeTime(value, { now: NOW, language: 'lt', justNow: 'ką tik' });

describe('relative time (spec §9)', () => {
  it.each([
    [0, 'just now'],
    [59_999, 'just now'],
    [MINUTE, '1 minute ago'],
    [5 * MINUTE + 30_000, '5 minutes ago'],
    [59 * MINUTE + 59_999, '59 minutes ago'],
    [HOUR, '1 hour ago'],
    [23 * HOUR + 59 * MINUTE, '23 hours ago'],
    [DAY, '1 day ago'],
    [6 * DAY + 23 * HOUR, '6 days ago'],
  ])('%i ms ago reads "%s" in English', (elapsed, expected) => {
    expect(en(ago(elapsed))).toBe(expected);
  });

  it('reads the full date from 7 days on', () => {
    const at = ago(7 * DAY);
    expect(en(at)).toBe(formatDateTime(at, 'en'));
    expect(en(at)).toMatch(/Mar 3, 2026/);
    expect(en(ago(400 * DAY))).toMatch(/2025/);
  });

  it('speaks Lithuanian', () => {
    expect(lt(ago(10_000))).toBe('ką tik');
    expect(lt(ago(5 * MINUTE))).toBe('prieš 5 minutes');
    expect(lt(ago(2 * HOUR))).toBe('prieš 2 valandas');
    expect(lt(ago(3 * DAY))).toBe('prieš 3 dienas');
    expect(lt(ago(8 * DAY))).toBe(formatDateTime(ago(8 * DAY), 'lt'));
    expect(lt(ago(8 * DAY))).toMatch(/2026/);
  });

  it('counts the seconds under a minute when asked, in both languages', () => {
    const seconds = (value: Date, language: string) =>
      formatRelativeTime(value, { now: NOW, language, justNow: '·', seconds: true });
    expect(seconds(ago(12_400), 'en')).toBe('12 seconds ago');
    expect(seconds(ago(12_400), 'lt')).toBe('prieš 12 sekundžių');
    expect(seconds(ago(1_000), 'lt')).toBe('prieš 1 sekundę');
    expect(seconds(ago(400), 'en')).toBe('·');
    expect(seconds(new Date(NOW.getTime() + 5_000), 'en')).toBe('·');
    expect(seconds(ago(2 * MINUTE), 'en')).toBe('2 minutes ago');
  });

  it('reads a time slightly in the future as just now, and passes through what is not a date', () => {
    expect(en(new Date(NOW.getTime() + 5_000))).toBe('just now');
    expect(en('2026-03-10T11:55:00Z')).toBe('5 minutes ago');
    expect(en('not a date')).toBe('not a date');
  });
});
