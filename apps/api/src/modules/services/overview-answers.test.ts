import { describe, expect, it, vi } from 'vitest';
import type { ServiceFeatureCounts } from '@debesis/contract';
import { DAY_MS, NODE_OFFLINE_AFTER_MS } from './lifecycle.constants.ts';
import { createOverviewAnswers, type OverviewAnswer } from './overview-answers.ts';
import { overviewTimedFields, presentOverviewItem } from './services.presenter.ts';
import type { ServiceListRow } from './services.queries.ts';

const start = new Date('2026-12-01T10:00:00.250Z');

function row(id: string, overrides: Partial<ServiceListRow> = {}): ServiceListRow {
  return {
    id,
    accountId: 'account-1',
    orderId: `order-${id}`,
    productId: 'starter',
    periodId: '1m',
    name: `Service ${id}`,
    description: '',
    status: 'active',
    statusChangedAt: new Date(start.getTime() - DAY_MS),
    runState: 'running',
    validUntil: new Date(start.getTime() + 10 * DAY_MS + 1_000),
    nodeId: 'node-1',
    address: '198.51.100.7',
    standbyNodeId: null,
    replicaTakenAt: null,
    diskSpace: 3,
    usersCount: 2,
    monthlyPriceMinor: 499,
    diskUsedBytes: 1_000,
    fileCount: 4,
    startedAt: new Date(start.getTime() - 90_500),
    reportedAt: new Date(start.getTime() - 1_000),
    notServing: false,
    generation: 3,
    observedGeneration: 3,
    restartGeneration: null,
    lastError: null,
    autoRenew: true,
    ...overrides,
  };
}

const COUNTS: ServiceFeatureCounts = { users_active: 1, groups: 2, shares: 3 };

function setup() {
  let now = start;
  let names: Record<string, string> = { starter: 'Starter', mini: 'Mini' };
  const counts = vi.fn(async (rows: ServiceListRow[]) => new Map(rows.map((r) => [r.id, COUNTS])));
  const answers = createOverviewAnswers(
    {
      planNames: async (rows) => new Map(rows.map((r) => [r.productId, names[r.productId] ?? r.productId])),
      counts,
      now: () => now,
    },
    3,
  );
  /** What presenting the rows afresh answers at the time it is now. */
  const afresh = (rows: ServiceListRow[]): OverviewAnswer => ({
    services: rows.map((r) =>
      presentOverviewItem(r, names[r.productId] ?? r.productId, COUNTS, overviewTimedFields(r, now)),
    ),
  });
  return {
    answers,
    counts,
    afresh,
    at: (ms: number) => {
      now = new Date(start.getTime() + ms);
    },
    rename: (productId: string, name: string) => {
      names = { ...names, [productId]: name };
    },
  };
}

describe('overview answers', () => {
  const rows = [
    row('a'),
    row('b', { productId: 'mini', status: 'processing', nodeId: null, startedAt: null }),
    row('c', { status: 'cancelled', runState: 'stopped' }),
  ];

  it('serves the kept answer again while nothing it shows has changed, frozen all through', async () => {
    const { answers, counts, afresh } = setup();
    const first = await answers.answer('account-1', { version: '1,2,3', rows });
    expect(first).toEqual(afresh(rows));
    expect(Object.isFrozen(first) && Object.isFrozen(first.services)).toBe(true);
    expect(first.services.every((item) => Object.isFrozen(item) && Object.isFrozen(item.actions))).toBe(true);

    const kept = answers.kept('account-1');
    expect(kept?.version).toBe('1,2,3');
    expect(await answers.answer('account-1', kept!)).toBe(first);
    expect(counts).toHaveBeenCalledTimes(1);
    expect(answers.kept('another-account')).toBeUndefined();
  });

  it('presents afresh when a field that moves with the clock moves', async () => {
    const { answers, afresh, at } = setup();
    const first = await answers.answer('account-1', { version: 'v', rows });
    // Within the same second of uptime the answer stands; the next second it does not.
    at(499);
    expect(await answers.answer('account-1', answers.kept('account-1')!)).toBe(first);
    at(500);
    const later = await answers.answer('account-1', answers.kept('account-1')!);
    expect(later).not.toBe(first);
    expect(later).toEqual(afresh(rows));
    expect(later.services[0]?.uptime).toBe((first.services[0]?.uptime ?? 0) + 1);

    // Its node falling silent, and a day fewer left.
    at(NODE_OFFLINE_AFTER_MS);
    const silent = await answers.answer('account-1', answers.kept('account-1')!);
    expect(silent.services[0]).toMatchObject({ display_state: 'degraded', display_reason: 'node_silent' });
    expect(silent).toEqual(afresh(rows));
    at(DAY_MS);
    const dayLater = await answers.answer('account-1', answers.kept('account-1')!);
    expect(dayLater.services[0]?.days_left).toBe((first.services[0]?.days_left ?? 0) - 1);
    expect(dayLater).toEqual(afresh(rows));
  });

  it('presents afresh when a plan is renamed or the rows are read again', async () => {
    const { answers, afresh, rename, counts } = setup();
    const first = await answers.answer('account-1', { version: 'v1', rows });
    rename('mini', 'Mini plus');
    const renamed = await answers.answer('account-1', answers.kept('account-1')!);
    expect(renamed.services[1]?.plan).toBe('Mini plus');
    expect(renamed).toEqual(afresh(rows));
    expect(counts).toHaveBeenCalledTimes(1);

    const changed = [{ ...rows[0]!, name: 'Renamed', diskUsedBytes: 2_000 }, rows[2]!];
    const reread = await answers.answer('account-1', { version: 'v2', rows: changed });
    expect(reread).not.toBe(first);
    expect(reread).toEqual(afresh(changed));
    expect(answers.kept('account-1')?.version).toBe('v2');
  });

  it('keeps a bounded number of accounts', async () => {
    const { answers } = setup();
    for (const account of ['a1', 'a2', 'a3']) await answers.answer(account, { version: 'v', rows });
    expect(answers.kept('a1')).toBeDefined();
    await answers.answer('a4', { version: 'v', rows });
    expect(answers.kept('a1')).toBeUndefined();
    expect(answers.kept('a4')).toBeDefined();
  });
});
