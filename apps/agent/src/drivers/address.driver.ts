// The workspace's own address, as an alias on the loopback interface (`ip addr add
// 127.0.10.N/32 dev lo`): its daemons bind only to it (smbd refuses an `interfaces =` address no
// interface carries). On a production host the address is a routed public one; a /32 on lo is
// the usual way to accept traffic routed to the host for it. The address the alias was made for
// is kept in the workspace folder, so a changed address drops the old alias; removal drops it.
// Only addresses of this node's own pool (AGENT_ADDRESS_POOL) are ever added or dropped: a desired
// state naming any other (the host's own, another node's) is refused, whoever sent it.
import { readFile, rm } from 'node:fs/promises';
import { isIPv4, isIPv6 } from 'node:net';
import { z } from 'zod';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import type { CommandRunner } from '../exec/run-command.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import type { Driver, DriverResult } from './driver.ts';
import { DEFAULT_ADDRESS_POOL } from '../config.ts';
import { expandAddressPool } from '../capacity.ts';
import { notLiveReason, type LiveDriverOptions } from './live-mode.ts';

export const ADDRESS_DRIVER = 'address';
const DEVICE = 'lo';

// Addresses the host itself needs: never made a workspace's, never deleted.
const HOST_ADDRESSES = new Set(['127.0.0.1', '::1', '0.0.0.0', '::']);

const ipAddrSchema = z.array(
  z.object({
    addr_info: z.array(z.object({ local: z.string(), prefixlen: z.number() })).default([]),
  }),
);

/** `<address>/32` (or /128): the exact alias entry the agent adds and deletes. */
export function aliasFor(address: string): string {
  if (HOST_ADDRESSES.has(address)) throw new Error(`${address} is the host's own address, not a workspace's`);
  if (isIPv4(address)) return `${address}/32`;
  if (isIPv6(address)) return `${address.toLowerCase()}/128`;
  throw new Error(`workspace address ${JSON.stringify(address.slice(0, 64))} is not an IP address`);
}

/** One spelling per address, so `FE80::1` and `fe80:0::1` are the same pool entry. */
function canonical(address: string): string {
  return isIPv6(address) ? new URL(`http://[${address}]`).hostname.slice(1, -1) : address;
}

export interface AddressDriverOptions extends LiveDriverOptions {
  /** The addresses this node may give to workspaces (AGENT_ADDRESS_POOL); default its default. */
  addressPool?: readonly string[];
}

async function aliasesOnLo(run: CommandRunner): Promise<Set<string>> {
  const result = await run('ip', ['-j', 'addr', 'show', 'dev', DEVICE], { check: true });
  const parsed = ipAddrSchema.parse(JSON.parse(result.stdout));
  return new Set(parsed.flatMap((link) => link.addr_info.map((a) => `${a.local}/${a.prefixlen}`)));
}

export function createAddressDriver(options: AddressDriverOptions = {}): Driver {
  const pool = new Set((options.addressPool ?? expandAddressPool(DEFAULT_ADDRESS_POOL)).map(canonical));
  const inPool = (address: string) => (isIPv4(address) || isIPv6(address)) && pool.has(canonical(address));
  return {
    name: ADDRESS_DRIVER,
    async apply(desired, context): Promise<DriverResult> {
      const { addressFile } = workspaceLayout(context.workspaceDir);
      const wanted = aliasFor(desired.address);
      // Removal still goes on (its data must go), but touches no address outside the pool.
      if (!inPool(desired.address) && desired.state !== 'removed')
        throw new Error(
          `${JSON.stringify(desired.address.slice(0, 64))} is not in this node's address pool (AGENT_ADDRESS_POOL); refusing to configure it`,
        );
      const reason = await notLiveReason(options, ['ip']);
      if (reason)
        return {
          changed: false,
          actions: [],
          status: {
            driver: ADDRESS_DRIVER,
            live: false,
            reason: `${reason}: ${desired.address} is not added to ${DEVICE}`,
          },
        };

      const recorded = await readFile(addressFile, 'utf8').then(
        (text) => text.trim(),
        () => undefined,
      );
      const present = await aliasesOnLo(context.run);
      const actions: string[] = [];
      const drop = async (alias: string) => {
        if (!present.has(alias)) return;
        await context.run('ip', ['addr', 'del', alias, 'dev', DEVICE], { check: true });
        actions.push(`removed address ${alias}`);
      };

      if (desired.state === 'removed') {
        if (inPool(desired.address)) await drop(wanted);
        if (recorded && recorded !== wanted && inPool(recorded.replace(/\/\d+$/, ''))) await drop(recorded);
        await rm(addressFile, { force: true });
        return { changed: actions.length > 0, actions, status: { driver: ADDRESS_DRIVER, live: true } };
      }

      if (recorded && recorded !== wanted) {
        // Recorded before a change of address; only ever an alias this agent added.
        const old = (() => {
          try {
            return aliasFor(recorded.replace(/\/\d+$/, ''));
          } catch {
            return undefined;
          }
        })();
        if (old && inPool(recorded.replace(/\/\d+$/, ''))) await drop(old);
      }
      // Kept while stopped too: cheap, and the address stays the workspace's.
      if (!present.has(wanted)) {
        await context.run('ip', ['addr', 'add', wanted, 'dev', DEVICE], { check: true });
        actions.push(`added address ${wanted}`);
      }
      if ((await writeIfChanged(addressFile, `${wanted}\n`, { mode: 0o644 })).changed && actions.length === 0)
        actions.push(`recorded address ${wanted}`);
      return { changed: actions.length > 0, actions, status: { driver: ADDRESS_DRIVER, live: true } };
    },
  };
}
