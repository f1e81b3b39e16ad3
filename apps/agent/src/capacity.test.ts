import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeCapacitySchema } from '@debesis/contract';
import { expandAddressPool, measureCapacity } from './capacity.ts';

describe('expandAddressPool', () => {
  it('expands a range', () => {
    const addresses = expandAddressPool('127.0.10.1-127.0.10.254');
    expect(addresses).toHaveLength(254);
    expect(addresses[0]).toBe('127.0.10.1');
    expect(addresses.at(-1)).toBe('127.0.10.254');
  });

  it('takes a comma list of addresses and ranges, across octets, without duplicates', () => {
    expect(expandAddressPool(' 10.0.0.255-10.0.1.1, 192.168.1.5,10.0.1.1 ,::1')).toEqual([
      '10.0.0.255',
      '10.0.1.0',
      '10.0.1.1',
      '192.168.1.5',
      '::1',
    ]);
  });

  it('refuses what it cannot read', () => {
    expect(() => expandAddressPool('')).toThrow('empty');
    expect(() => expandAddressPool('127.0.10.300')).toThrow('not an IP address');
    expect(() => expandAddressPool('127.0.10.9-127.0.10.1')).toThrow('ends before it starts');
    expect(() => expandAddressPool('10.0.0.0-10.1.0.0')).toThrow('more than 4096');
    expect(() => expandAddressPool('::1-::2')).toThrow('not a range of IPv4');
  });
});

describe('measureCapacity', () => {
  it('reports the disk of the data folder and the addresses, as the contract expects', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-cap-'));
    try {
      const capacity = await measureCapacity(dir, ['127.0.10.1']);
      expect(nodeCapacitySchema.parse(capacity)).toEqual(capacity);
      expect(capacity.disk_total_bytes).toBeGreaterThan(0);
      expect(capacity.disk_free_bytes).toBeLessThanOrEqual(capacity.disk_total_bytes);
      expect(capacity.addresses).toEqual(['127.0.10.1']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails for a data folder that does not exist', async () => {
    await expect(measureCapacity('/nonexistent/debesis-agent', [])).rejects.toThrow(/ENOENT/);
  });
});
