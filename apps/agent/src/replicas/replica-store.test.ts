// Replica names and what each side keeps (no btrfs: the pure rules).
import { describe, expect, it } from 'vitest';
import { REPLICA_NAME_PATTERN } from '@debesis/contract';
import { newestKeeps, primaryKeeps, replicaName, replicaTime } from './replica-store.ts';

describe('replica names', () => {
  it('name the UTC millisecond, match the contract and read back', () => {
    const at = new Date(Date.UTC(2026, 11, 7, 1, 45, 12, 345));
    expect(replicaName(at)).toBe('r-20261207T014512345Z');
    expect(REPLICA_NAME_PATTERN.test(replicaName(at))).toBe(true);
    expect(replicaTime('r-20261207T014512345Z')?.toISOString()).toBe(at.toISOString());
    expect(replicaTime('r-20261307T014512345Z')).toBeUndefined();
    expect(replicaTime('@GMT-2026.12.07-01.45.12')).toBeUndefined();
  });
});

describe('what a primary keeps after a send', () => {
  const held = [
    'r-20261207T010000000Z',
    'r-20261207T010030000Z',
    'r-20261207T010100000Z',
    'r-20261207T010130000Z',
    'r-20261207T010200000Z',
    'r-20261207T010230000Z',
  ];
  const sent = held.at(-1)!;
  it('keeps the parent and what is newer, at most four', () => {
    expect([...primaryKeeps(held, sent, held[4])].sort()).toEqual([held[4], sent]);
    expect([...primaryKeeps(held, sent, held[0])].sort()).toEqual([held[0], held[3], held[4], sent]);
  });
  it('keeps only the new one after a whole send, or with a parent it does not hold', () => {
    expect([...primaryKeeps(held, sent, undefined)]).toEqual([sent]);
    expect([...primaryKeeps(held, sent, 'r-20261206T000000000Z')]).toEqual([sent]);
  });
  it('a standby keeps its newest two', () => {
    expect([...newestKeeps(held)].sort()).toEqual([held[4], held[5]]);
  });
});
