// What this node can offer the control plane: the disk under the data folder and the addresses
// it may give to workspaces. Both are reported at registration and with every report.
import { statfs } from 'node:fs/promises';
import { isIPv4, isIPv6 } from 'node:net';
import type { NodeCapacity } from '@debesis/contract';

/** The contract accepts at most this many addresses per node. */
export const MAX_ADDRESSES = 4096;

/**
 * Expands `127.0.10.1-127.0.10.254`, `10.0.0.5,10.0.0.6` or a mix of both into the list of
 * addresses, in order and without duplicates. IPv6 addresses are accepted one by one (no ranges).
 * Throws with a readable message on anything else.
 */
export function expandAddressPool(spec: string): string[] {
  const result = new Set<string>();
  const parts = spec
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0) throw new Error('the address pool is empty');
  for (const part of parts) {
    const dash = part.indexOf('-');
    if (dash === -1) {
      if (!isIPv4(part) && !isIPv6(part)) throw new Error(`"${part}" is not an IP address`);
      result.add(isIPv6(part) ? part.toLowerCase() : part);
    } else {
      const from = part.slice(0, dash).trim();
      const to = part.slice(dash + 1).trim();
      if (!isIPv4(from) || !isIPv4(to)) throw new Error(`"${part}" is not a range of IPv4 addresses`);
      const start = ipv4ToNumber(from);
      const end = ipv4ToNumber(to);
      if (end < start) throw new Error(`"${part}" ends before it starts`);
      if (end - start + 1 > MAX_ADDRESSES)
        throw new Error(`"${part}" holds more than ${MAX_ADDRESSES} addresses`);
      for (let n = start; n <= end; n++) result.add(numberToIpv4(n));
    }
    if (result.size > MAX_ADDRESSES)
      throw new Error(`the address pool holds more than ${MAX_ADDRESSES} addresses`);
  }
  return [...result];
}

function ipv4ToNumber(address: string): number {
  return address.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

function numberToIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Disk total/free (bytes available to an unprivileged writer) of the file system holding `dataDir`. */
export async function measureDisk(dataDir: string): Promise<{ total: number; free: number }> {
  const stats = await statfs(dataDir);
  return { total: stats.blocks * stats.bsize, free: stats.bavail * stats.bsize };
}

export async function measureCapacity(dataDir: string, addresses: readonly string[]): Promise<NodeCapacity> {
  const disk = await measureDisk(dataDir);
  return { disk_total_bytes: disk.total, disk_free_bytes: disk.free, addresses: [...addresses] };
}
