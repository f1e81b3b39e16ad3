// What the cluster tests check after purchases, crashes and restarts, read straight from the
// cluster's database and its nodes' data folders (the tests stand outside the processes, as an
// operator would).
import { existsSync, readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Cluster } from '../../../../scripts/lib/cluster.ts';

export interface PlacedService {
  id: string;
  order_id: string;
  status: string;
  node: string | null;
  address: string | null;
  generation: number;
  observed_generation: number | null;
}

export function placedServices(cluster: Cluster): Promise<PlacedService[]> {
  return cluster.query<PlacedService>(
    `select s.id, s.order_id, s.status, n.name as node, s.address, s.generation, s.observed_generation
       from services s left join nodes n on n.id = s.node_id order by s.created_at`,
  );
}

/** The workspaces each node's agent keeps in its data folder, by node name. */
export function workspacesOnNodes(cluster: Cluster): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(cluster.agentDataDirs).map(([name, dir]) => {
      const root = path.join(dir, 'workspaces');
      return [name, existsSync(root) ? readdirSync(root).sort() : []];
    }),
  );
}

/**
 * Every paid order has exactly one service, active and applied where it was placed, held by
 * exactly one node's agent (no twin on another node, no leftover of a service that is not
 * there); every purchase has exactly one invoice; invoice numbers are unique and gap-free.
 * Returns the number of workspaces on each node.
 */
export async function expectConsistent(cluster: Cluster): Promise<Record<string, number>> {
  const paid = await cluster.query<{ id: string }>(
    `select id from orders where status = 'PAID' and kind = 'new'`,
  );
  const services = await placedServices(cluster);
  const live = services.filter((service) => service.status !== 'terminated');
  expect(new Set(services.map((service) => service.order_id)).size).toBe(services.length);
  expect(services.map((service) => service.order_id).sort()).toEqual(paid.map((order) => order.id).sort());
  for (const service of live) {
    expect(service, `service ${service.id}`).toMatchObject({ status: 'active' });
    expect(service.node, `service ${service.id} has a node`).not.toBeNull();
    expect(service.observed_generation, `service ${service.id} applied`).toBe(service.generation);
  }
  // One address per node for each workspace.
  const addresses = live.map((service) => `${service.node}/${service.address}`);
  expect(new Set(addresses).size).toBe(addresses.length);

  // Configs are written to a temporary and renamed: an agent killed mid-write leaves one, which
  // its next write of that file removes. Once converged, none is left.
  for (const dir of Object.values(cluster.agentDataDirs)) {
    const root = path.join(dir, 'workspaces');
    const files: Dirent[] = existsSync(root)
      ? readdirSync(root, { recursive: true, withFileTypes: true })
      : [];
    expect(
      files.filter((file) => file.name.endsWith('.tmp')).map((file) => path.join(file.parentPath, file.name)),
      'temporaries left in a node',
    ).toEqual([]);
  }

  const onNodes = workspacesOnNodes(cluster);
  const perNode: Record<string, number> = {};
  for (const [node, ids] of Object.entries(onNodes)) {
    const expected = live.filter((service) => service.node === node).map((service) => service.id);
    expect(ids, `the workspaces in ${node}'s data folder`).toEqual(expected.sort());
    perNode[node] = ids.length;
  }

  const invoices = await cluster.query<{ number: string; year: number; sequence: number; order_id: string }>(
    `select number, year, sequence, order_id from invoices where type = 'PURCHASE' order by year, sequence`,
  );
  expect(invoices.map((invoice) => invoice.order_id).sort()).toEqual(paid.map((order) => order.id).sort());
  const numbers = await cluster.query<{ number: string; year: number; sequence: number }>(
    `select number, year, sequence from invoices order by year, sequence`,
  );
  expect(new Set(numbers.map((invoice) => invoice.number)).size).toBe(numbers.length);
  for (const year of new Set(numbers.map((invoice) => invoice.year))) {
    const sequences = numbers.filter((invoice) => invoice.year === year).map((invoice) => invoice.sequence);
    expect(sequences, `invoice numbers of ${year}`).toEqual(sequences.map((_, index) => index + 1));
  }
  return perNode;
}
