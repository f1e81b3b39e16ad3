// A workspace's traffic on its own network link, counted from the kernel's counters of the node's
// end of its veth pair (/sys/class/net/<end>/statistics): `tx_bytes` is what the node sent into the
// workspace (it received), `rx_bytes` what came out of it (it sent). Those counters start at 0
// whenever the pair is made (again) and say nothing of what the agent counted before a restart, so
// the agent keeps a running total of its own in the workspace folder (`traffic.json`): each sample
// adds the counters' growth since the last one it recorded, or, when a counter went down (the
// pair made again), the counter itself (all of it is new). The record is written after each
// sample, so a restarted agent goes on from it and counts nothing twice. Reported as is (contract
// TrafficReport): the API counts the growth between reports.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { readJsonFile } from '../fs/read-json-file.ts';

const recordSchema = z.object({
  counter_id: z.string().min(1).max(64),
  received_bytes: z.number().int().nonnegative(),
  sent_bytes: z.number().int().nonnegative(),
  /** The kernel's counters at the last sample (tx, rx of the node's end). */
  last_tx: z.number().int().nonnegative(),
  last_rx: z.number().int().nonnegative(),
});
export type TrafficRecord = z.infer<typeof recordSchema>;

/** The node end's counters: what it sent (into the workspace) and received (from it). */
export interface LinkCounters {
  tx: number;
  rx: number;
}

/** Growth of a counter since `last`; a counter below it was reset, so all of it is new. */
function growth(now: number, last: number): number {
  return now >= last ? now - last : now;
}

/**
 * The record after one sample. Without a record (a first sample, or its file lost) a new total
 * starts at the counters as they are (a new `counter_id`, so the API does not mistake it for the
 * old total going down), counting nothing of what the link carried before.
 */
export function advanceTraffic(
  record: TrafficRecord | undefined,
  counters: LinkCounters,
  newId: () => string = randomUUID,
): TrafficRecord {
  if (!record)
    return {
      counter_id: newId(),
      received_bytes: 0,
      sent_bytes: 0,
      last_tx: counters.tx,
      last_rx: counters.rx,
    };
  return {
    counter_id: record.counter_id,
    received_bytes: record.received_bytes + growth(counters.tx, record.last_tx),
    sent_bytes: record.sent_bytes + growth(counters.rx, record.last_rx),
    last_tx: counters.tx,
    last_rx: counters.rx,
  };
}

async function readCounter(path: string): Promise<number | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const value = Number(text.trim());
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** The counters of an interface; undefined when it is not there. */
export async function readLinkCounters(
  device: string,
  sysNet = '/sys/class/net',
): Promise<LinkCounters | undefined> {
  const [tx, rx] = await Promise.all([
    readCounter(`${sysNet}/${device}/statistics/tx_bytes`),
    readCounter(`${sysNet}/${device}/statistics/rx_bytes`),
  ]);
  return tx === undefined || rx === undefined ? undefined : { tx, rx };
}

export async function readTrafficRecord(path: string): Promise<TrafficRecord | undefined> {
  return readJsonFile(path, recordSchema);
}

/**
 * Samples `device` and records the total in `path`; the total as reported. Undefined while the
 * interface is not there (nothing is recorded: the total waits for the link).
 */
export async function sampleTraffic(
  path: string,
  device: string,
  sysNet?: string,
): Promise<Pick<TrafficRecord, 'counter_id' | 'received_bytes' | 'sent_bytes'> | undefined> {
  const counters = await readLinkCounters(device, sysNet);
  if (!counters) return undefined;
  const record = advanceTraffic(await readTrafficRecord(path), counters);
  await writeIfChanged(path, JSON.stringify(record) + '\n', { mode: 0o644 });
  return {
    counter_id: record.counter_id,
    received_bytes: record.received_bytes,
    sent_bytes: record.sent_bytes,
  };
}
