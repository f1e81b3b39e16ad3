// Placement under contention: two workers placing the same services at the same moment (on
// PostgreSQL really in parallel) give each service one node, address and id block, and tell
// its owner once.
import { describe, expect, it } from 'vitest';
import type { ServiceLogLine } from '@debesis/contract';
import { signedInUser } from '../../test/factories.ts';
import { buyService, seedCatalogue } from '../../test/payments.ts';
import { capacity, expectNoOvercommit, registerNode, serviceJobs } from '../../test/services.ts';
import { useTestContext } from '../../test/test-app.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

describe('placement by two workers at once', () => {
  const ctx = useTestContext({}, seedCatalogue);

  it('places every service once, on distinct addresses and id blocks', async () => {
    const addresses = Array.from({ length: 8 }, (_, index) => `10.5.0.${index + 1}`);
    const a = await registerNode(ctx, 'race-a', capacity(1000, addresses.slice(0, 4)));
    const b = await registerNode(ctx, 'race-b', capacity(1000, addresses.slice(4)));
    const owner = await signedInUser(ctx);
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1)
      ids.push((await buyService(ctx, owner.auth, STARTER)).service_id);

    const first = serviceJobs(ctx);
    const second = serviceJobs(ctx);
    const outcomes = await Promise.all([
      ...ids.map((id) => first.placement.place(id)),
      ...ids.map((id) => second.placement.place(id)),
    ]);
    expect(outcomes.filter((outcome) => outcome.kind === 'placed')).toHaveLength(ids.length);
    expect(outcomes.filter((outcome) => outcome.kind === 'skipped')).toHaveLength(ids.length);

    const desired = [...(await a.desired()).workspaces, ...(await b.desired()).workspaces];
    expect(desired.map((workspace) => workspace.service_id).sort()).toEqual([...ids].sort());
    const perNode = [(await a.desired()).workspaces, (await b.desired()).workspaces];
    for (const workspaces of perNode) {
      expect(new Set(workspaces.map((w) => w.address)).size).toBe(workspaces.length);
      expect(new Set(workspaces.map((w) => w.id_base)).size).toBe(workspaces.length);
    }
    // No node promises more disk than it has free.
    await expectNoOvercommit(ctx);
    for (const id of ids) {
      const logs = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/services/${id}/logs`,
        headers: owner.auth,
      });
      const placed = logs
        .json<{ lines: ServiceLogLine[] }>()
        .lines.filter((line) => line.message === 'service placed');
      expect(placed).toHaveLength(1);
    }
  });
});
