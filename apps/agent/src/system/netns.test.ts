import { describe, expect, it } from 'vitest';
import { expandAddressPool } from '../capacity.ts';
import { DEFAULT_ADDRESS_POOL } from '../config.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { hiddenAncestor, inWorkspaceNamespace } from './namespace.ts';
import {
  GUARD_RULE_PRIORITY,
  POOL_GUARD_METRIC,
  canonicalBlock,
  clientBlocks,
  guardRule,
  guardTableLines,
  missingGuards,
  networkNames,
  parseProcRoutes,
  poolBlocks,
  releasableGuards,
  routedThrough,
} from './netns.ts';

// /proc/net/route as the kernel writes it: a /32 through a workspace's veth, the pool's guard
// (flags 0x0205: up, host, reject; device `*`) and the default route.
const PROC_ROUTE = [
  'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT',
  'eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0',
  'dbs-0123456789\t07FA13C6\t00000000\t0005\t0\t0\t0\tFFFFFFFF\t0\t0\t0',
  `*\t07FA13C6\t00000000\t0205\t0\t0\t${POOL_GUARD_METRIC}\tFFFFFFFF\t0\t0\t0`,
  `*\t000012C6\t00000000\t0201\t0\t0\t${POOL_GUARD_METRIC}\t00FFFFFF\t0\t0\t0`,
  '',
].join('\n');

describe('a workspace network’s names', () => {
  it('are stable per service id, differ between ids and fit a veth name (15 characters)', () => {
    const a = networkNames('9b6b8f0e-1111-4c55-9d5b-0f4f3c1d2e10');
    expect(networkNames('9b6b8f0e-1111-4c55-9d5b-0f4f3c1d2e10')).toEqual(a);
    expect(networkNames('9b6b8f0e-2222-4c55-9d5b-0f4f3c1d2e10').netns).not.toBe(a.netns);
    expect(a.nodeInterface).toMatch(/^dbs-[0-9a-f]{10}$/);
    expect(a.nodeInterface.length).toBeLessThanOrEqual(15);
    expect(a.netns).toMatch(/^debesis-[0-9a-f]{10}$/);
    // A guard table of its own, clear of local (255), main (254), default (253) and small ids.
    expect(a.guardTable).toBeGreaterThanOrEqual(2 ** 28);
    expect(a.guardTable).toBeLessThan(2 ** 29);
    expect(networkNames('9b6b8f0e-2222-4c55-9d5b-0f4f3c1d2e10').guardTable).not.toBe(a.guardTable);
  });
});

describe('the pool’s guard routes', () => {
  it('cover exactly the pool with the fewest blocks', () => {
    expect(poolBlocks(expandAddressPool(DEFAULT_ADDRESS_POOL))).toEqual([
      '198.18.0.1/32',
      '198.18.0.2/31',
      '198.18.0.4/30',
      '198.18.0.8/29',
      '198.18.0.16/28',
      '198.18.0.32/27',
      '198.18.0.64/26',
      '198.18.0.128/26',
      '198.18.0.192/27',
      '198.18.0.224/28',
      '198.18.0.240/29',
      '198.18.0.248/30',
      '198.18.0.252/31',
      '198.18.0.254/32',
    ]);
    expect(poolBlocks(['10.0.0.7', '10.0.0.5', '10.0.0.6', 'fe80::1', '10.0.0.5'])).toEqual([
      '10.0.0.5/32',
      '10.0.0.6/31',
    ]);
    expect(poolBlocks(expandAddressPool('198.18.0.0-198.18.1.255'))).toEqual(['198.18.0.0/23']);
  });

  it('are read from /proc/net/route, so only the missing ones are added', () => {
    const routes = parseProcRoutes(PROC_ROUTE);
    expect(routes).toContainEqual({
      device: '*',
      destination: '198.18.0.0',
      prefix: 24,
      metric: POOL_GUARD_METRIC,
      reject: true,
    });
    expect(missingGuards(['198.19.250.7'], routes)).toEqual([]);
    expect(missingGuards(expandAddressPool('198.18.0.0-198.18.0.255'), routes)).toEqual([]);
    expect(missingGuards(['198.19.250.7', '198.19.250.9'], routes)).toEqual(['198.19.250.9/32']);
    expect(routedThrough(routes, '198.19.250.7', 'dbs-0123456789')).toBe(true);
    expect(routedThrough(routes, '198.19.250.7', 'dbs-9999999999')).toBe(false);
    expect(routedThrough(routes, '198.18.0.0', '*')).toBe(false);
  });

  it('are released only where no workspace of the host holds an address', () => {
    const routes = parseProcRoutes(PROC_ROUTE);
    // 198.19.250.7 is routed through a workspace's veth: its guard stays.
    expect(releasableGuards(['198.19.250.7'], routes)).toEqual([]);
    // The /24 guard holds no workspace's address: it goes; a block with no guard is not named.
    expect(releasableGuards(expandAddressPool('198.18.0.0-198.18.0.255'), routes)).toEqual(['198.18.0.0/24']);
    expect(releasableGuards(['198.19.250.9'], routes)).toEqual([]);
  });
});

describe('client routes and the guard of what a workspace’s veth forwards', () => {
  it('are canonical CIDR blocks, none inside the pool', () => {
    expect(canonicalBlock('192.0.2.77/24')).toBe('192.0.2.0/24');
    expect(canonicalBlock('0.0.0.0/0')).toBe('0.0.0.0/0');
    expect(canonicalBlock('192.0.2.77/32')).toBe('192.0.2.77/32');
    for (const bad of ['192.0.2.0', '192.0.2.0/33', '300.0.0.0/8', 'fe80::/64', '192.0.2.0/24 x'])
      expect(canonicalBlock(bad)).toBeUndefined();
    const pool = expandAddressPool(DEFAULT_ADDRESS_POOL);
    expect(clientBlocks(['198.19.7.9/30', '0.0.0.0/0', '198.19.7.8/30'], pool)).toEqual([
      '0.0.0.0/0',
      '198.19.7.8/30',
    ]);
    // Holding the pool is fine (the pool's own, more specific, unreachable wins); inside it is not.
    expect(clientBlocks(['198.18.0.0/16'], pool)).toEqual(['198.18.0.0/16']);
    expect(() => clientBlocks(['198.18.0.64/26'], pool)).toThrow('inside the address pool');
    expect(() => clientBlocks(['198.18.0.9/32'], pool)).toThrow('inside the address pool');
    expect(() => clientBlocks(['nope'], pool)).toThrow('not an IPv4 CIDR block');
  });

  it('refuse the pool and everything but the client blocks, which go on to the main table', () => {
    const pool = ['198.18.0.1', '198.18.0.2', '198.18.0.3'];
    expect(guardTableLines(4242, pool, ['198.19.7.8/30'])).toEqual([
      'route flush table 4242',
      'route replace unreachable default table 4242',
      'route replace throw 198.19.7.8/30 table 4242',
      'route replace unreachable 198.18.0.1/32 table 4242',
      'route replace unreachable 198.18.0.2/31 table 4242',
    ]);
    // Production (0.0.0.0/0): everything but the pool goes on.
    expect(guardTableLines(7, pool, ['0.0.0.0/0'])).toEqual([
      'route flush table 7',
      'route replace throw 0.0.0.0/0 table 7',
      'route replace unreachable 198.18.0.1/32 table 7',
      'route replace unreachable 198.18.0.2/31 table 7',
    ]);
    const names = networkNames('9b6b8f0e-1111-4c55-9d5b-0f4f3c1d2e10');
    expect(guardRule(names)).toEqual([
      'iif',
      names.nodeInterface,
      'lookup',
      String(names.guardTable),
      'priority',
      String(GUARD_RULE_PRIORITY),
    ]);
    expect(GUARD_RULE_PRIORITY).toBeGreaterThan(0);
    expect(GUARD_RULE_PRIORITY).toBeLessThan(32766);
  });
});

describe('entering a workspace', () => {
  it('joins the workspace’s network namespace before making its mount namespace', () => {
    const serviceId = '9b6b8f0e-1111-4c55-9d5b-0f4f3c1d2e10';
    const layout = workspaceLayout(`/var/lib/debesis/workspaces/${serviceId}`);
    const { command, args } = inWorkspaceNamespace(layout, ['smbd', '--foreground'], [layout.samba.dir]);
    expect(command).toBe('nsenter');
    expect(args.slice(0, 4)).toEqual([
      `--net=/run/netns/${networkNames(serviceId).netns}`,
      '--',
      'unshare',
      '--mount',
    ]);
    expect(args.slice(-2)).toEqual(['smbd', '--foreground']);
  });
});

describe('what a workspace daemon’s namespace hides of the node', () => {
  it('covers the data folder’s parents up to the highest one below a system folder', () => {
    expect(hiddenAncestor('/work/debesis/data/nodes/local')).toBe('/work');
    expect(hiddenAncestor('/home/ann/debesis/data/nodes/local')).toBe('/home/ann');
    expect(hiddenAncestor('/var/lib/debesis/agent')).toBe('/var/lib/debesis');
    expect(hiddenAncestor('/var/lib/debesis-agent')).toBe('/var/lib/debesis-agent');
    expect(hiddenAncestor('/tmp/agent-x')).toBe('/tmp/agent-x');
  });
});
