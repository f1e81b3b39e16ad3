import { describe, expect, it } from 'vitest';
import type { Snapshot, SnapshotKind } from '@debesis/contract';
import { snapshotName, snapshotTime, scheduledDue } from './snapshots.ts';
import { SNAPSHOT_RETENTION, snapshotsToFreeSpace, snapshotsToPrune } from './retention.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 11, 6, 18, 50, 0);

const snap = (ageMs: number, kind: SnapshotKind = 'scheduled'): Snapshot => {
  const at = new Date(NOW - ageMs);
  return { name: snapshotName(at), taken_at: at.toISOString(), kind };
};

/** A snapshot every 15 minutes for `days` days, as the schedule leaves them without pruning. */
const everyQuarter = (days: number) =>
  Array.from({ length: (days * DAY) / (15 * MIN) }, (_, i) => snap(i * 15 * MIN + 5 * MIN));

describe('snapshot names', () => {
  it('are Samba @GMT tokens of the UTC second, and read back', () => {
    const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(snapshotName(at)).toBe('@GMT-2026.01.02-03.04.05');
    expect(snapshotTime('@GMT-2026.01.02-03.04.05')).toEqual(at);
    expect(snapshotTime('@GMT-2026.13.02-03.04.05')).toBeUndefined();
    expect(snapshotTime('data')).toBeUndefined();
  });
});

describe('snapshot retention', () => {
  it('keeps every snapshot of the last 2 hours, one an hour for a day, one a day for 7 days, none older', () => {
    const all = everyQuarter(9);
    const doomed = new Set(snapshotsToPrune(all, NOW));
    const kept = all.filter((s) => !doomed.has(s.name));
    const ages = kept.map((s) => NOW - Date.parse(s.taken_at));
    expect(ages.filter((age) => age < 2 * HOUR)).toHaveLength(8);
    // Between 2 and 24 hours: one per UTC hour (the newest), give or take the hour cut at 2 hours.
    const hourly = ages.filter((age) => age >= 2 * HOUR && age < DAY);
    expect(hourly.length).toBeGreaterThanOrEqual(21);
    expect(hourly.length).toBeLessThanOrEqual(23);
    const daily = ages.filter((age) => age >= DAY);
    expect(daily.length).toBeGreaterThanOrEqual(6);
    expect(daily.length).toBeLessThanOrEqual(8);
    expect(Math.max(...ages)).toBeLessThan(SNAPSHOT_RETENTION.dailyMs);
    // Every kept one of a day past the first is the newest of its UTC day.
    for (const age of daily) {
      const at = NOW - age;
      const sameDay = all.filter((s) => Math.floor(Date.parse(s.taken_at) / DAY) === Math.floor(at / DAY));
      expect(Math.max(...sameDay.map((s) => Date.parse(s.taken_at)))).toBe(at);
    }
  });

  it('keeps snapshots taken on demand for 7 days, the newest 20 at most, apart from the schedule', () => {
    const manual = Array.from({ length: 25 }, (_, i) => snap(3 * HOUR + i * MIN, 'manual'));
    const old = snap(8 * DAY, 'manual');
    const doomed = snapshotsToPrune([...manual, old], NOW);
    expect(doomed).toHaveLength(6);
    expect(doomed).toContain(old.name);
    // The 5 oldest of the 25 go, oldest first.
    expect(doomed.slice(1)).toEqual(
      manual
        .slice(20)
        .map((s) => s.name)
        .reverse(),
    );
  });

  it('gives the room back while the storage is short of it: the oldest snapshot goes, the last one too', () => {
    const three = [snap(0), snap(30 * MIN, 'manual'), snap(2 * DAY)];
    expect(snapshotsToFreeSpace(three, 0.5)).toEqual([]);
    expect(snapshotsToFreeSpace(three, SNAPSHOT_RETENTION.minFreeRatio)).toEqual([]);
    expect(snapshotsToFreeSpace(three, 0.05)).toEqual([three[2]!.name]);
    expect(snapshotsToFreeSpace([snap(0)], 0)).toEqual([snap(0).name]);
    expect(snapshotsToFreeSpace([], 0)).toEqual([]);
  });

  it('deletes nothing of a fresh schedule', () => {
    expect(snapshotsToPrune([snap(0), snap(15 * MIN), snap(30 * MIN)], NOW)).toEqual([]);
  });

  it('owes a scheduled snapshot once per 15-minute slot of the clock; one on demand does not count', () => {
    const slotStart = Math.floor(NOW / (15 * MIN)) * 15 * MIN;
    expect(scheduledDue([], NOW)).toBe(true);
    expect(scheduledDue([snap(NOW - slotStart + 1000)], NOW)).toBe(true);
    expect(scheduledDue([{ ...snap(NOW - slotStart), kind: 'scheduled' }], NOW)).toBe(false);
    expect(scheduledDue([{ ...snap(NOW - slotStart), kind: 'manual' }], NOW)).toBe(true);
  });
});
