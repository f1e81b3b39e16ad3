import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BLOCK_MS, blockClient, blockedAddresses, blockedDrift } from './blocked-clients.ts';

let dir: string;
const layout = () => ({ blocked: join(dir, 'blocked.json'), exportsConf: join(dir, 'exports.conf') });
const refused = (addresses: string) =>
  `  CLIENT {\n    Clients = ${addresses};\n    Access_Type = None;\n  }\n`;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nfs-blocked-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('disconnected NFS clients', () => {
  it('are refused for longer than the lease, then drop out', async () => {
    const now = 1_000_000;
    expect(await blockClient(layout(), '10.0.0.9', now)).toBe(now + BLOCK_MS);
    await blockClient(layout(), '10.0.0.5', now + 10);
    expect(BLOCK_MS).toBeGreaterThan(60_000);
    expect(await blockedAddresses(layout(), now + 20)).toEqual(['10.0.0.5', '10.0.0.9']);
    expect(await blockedAddresses(layout(), now + BLOCK_MS + 5)).toEqual(['10.0.0.5']);
    expect(await blockedAddresses(layout(), now + BLOCK_MS + 20)).toEqual([]);
  });

  it('a file that is not the agent’s list reads as none', async () => {
    await writeFile(layout().blocked, '[{"address":"10.0.0.5; x","until":1}]');
    expect(await blockedAddresses(layout(), 0)).toEqual([]);
  });

  it('drift: a block not rendered yet, or an expired one still rendered', async () => {
    const now = 1_000_000;
    expect(await blockedDrift(layout(), now)).toBeUndefined();
    await blockClient(layout(), '10.0.0.9', now);
    expect(await blockedDrift(layout(), now + 1)).toMatch(/not refused yet/);
    await writeFile(layout().exportsConf, refused('10.0.0.9'));
    expect(await blockedDrift(layout(), now + 1)).toBeUndefined();
    expect(await blockedDrift(layout(), now + BLOCK_MS)).toMatch(/may connect again/);
    await writeFile(layout().exportsConf, '');
    expect(await blockedDrift(layout(), now + BLOCK_MS)).toBeUndefined();
  });
});
