import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { advanceTraffic, readTrafficRecord, sampleTraffic } from './traffic-counter.ts';

describe('advanceTraffic', () => {
  it('starts a new total at the counters as they are, then adds their growth', () => {
    const first = advanceTraffic(undefined, { tx: 500, rx: 70 }, () => 'c1');
    expect(first).toEqual({ counter_id: 'c1', received_bytes: 0, sent_bytes: 0, last_tx: 500, last_rx: 70 });
    const second = advanceTraffic(first, { tx: 800, rx: 100 });
    expect(second).toMatchObject({ counter_id: 'c1', received_bytes: 300, sent_bytes: 30 });
    // The same counters again count nothing.
    expect(advanceTraffic(second, { tx: 800, rx: 100 })).toMatchObject({
      received_bytes: 300,
      sent_bytes: 30,
    });
  });

  it('counts a reset counter (the veth made again) from zero, never backwards', () => {
    const before = advanceTraffic(undefined, { tx: 1000, rx: 1000 }, () => 'c1');
    const grown = advanceTraffic(before, { tx: 1500, rx: 1200 });
    const reset = advanceTraffic(grown, { tx: 40, rx: 10 });
    expect(reset).toMatchObject({ counter_id: 'c1', received_bytes: 540, sent_bytes: 210, last_tx: 40 });
  });
});

describe('sampleTraffic', () => {
  let dir: string;
  const link = 'dbs-test';
  const setCounters = async (tx: number, rx: number) => {
    const stats = join(dir, 'sys', link, 'statistics');
    await mkdir(stats, { recursive: true });
    await writeFile(join(stats, 'tx_bytes'), `${tx}\n`);
    await writeFile(join(stats, 'rx_bytes'), `${rx}\n`);
  };
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'traffic-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps its total across agent restarts (the record on disk) and counter resets', async () => {
    const file = join(dir, 'traffic.json');
    const sys = join(dir, 'sys');
    expect(await sampleTraffic(file, link, sys)).toBeUndefined();
    await setCounters(100, 10);
    const first = await sampleTraffic(file, link, sys);
    expect(first).toMatchObject({ received_bytes: 0, sent_bytes: 0 });
    await setCounters(2100, 510);
    expect(await sampleTraffic(file, link, sys)).toMatchObject({ received_bytes: 2000, sent_bytes: 500 });
    // An agent started again reads the same record: the same counters add nothing.
    expect(await sampleTraffic(file, link, sys)).toMatchObject({ received_bytes: 2000, sent_bytes: 500 });
    // The pair made again: its counters start over; what they carry now is added.
    await setCounters(300, 20);
    const after = await sampleTraffic(file, link, sys);
    expect(after).toEqual({ counter_id: first?.counter_id, received_bytes: 2300, sent_bytes: 520 });
    expect((await readTrafficRecord(file))?.last_tx).toBe(300);
  });
});
