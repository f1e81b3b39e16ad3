// The registry alone: a feature registered here reaches the desired state's sections, the
// overview's counts, the directory's dependents and the failure kinds, with nothing else told.
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import type { WorkspaceChanges } from './workspace-change.ts';
import type { RateLimiter } from '../rate-limits/rate-limits.service.ts';
import {
  createFeatureRegistry,
  createWorkspaceFeatures,
  type DirectoryDependent,
  type NodeCalls,
  type PlanFacts,
  type WorkspaceFeature,
  type WorkspaceFeatureFactory,
} from './workspace-feature.ts';

const share = (name: string) => ({
  name,
  path: `shares/${name}`,
  description: '',
  guest_ok: false,
  browseable: true,
  bind_public_ip: false,
  users: [],
  groups: [],
});

/** A feature of its own kind: one share per service, counted, holding users. */
function fakeFeature(removed: string[]): WorkspaceFeature {
  const dependent: DirectoryDependent = {
    userRemoved: async (_tx, { userId }) => void removed.push(`user ${userId}`),
    groupRemoved: async (_tx, { groupId }) => void removed.push(`group ${groupId}`),
  };
  return {
    feature: 'samba',
    failureKinds: ['fake_thing'],
    desiredSection: async ({ serviceId, idBase }) => ({
      samba: {
        shares: [share(`s${idBase}`)],
        settings: { workgroup: serviceId, server_string: '', min_protocol: 'SMB3' },
      },
    }),
    counts: async (ids) => new Map(ids.map((id, index) => [id, { shares: index + 7 }])),
    directoryDependent: dependent,
  };
}

const users: WorkspaceFeature = {
  feature: 'users',
  failureKinds: ['user', 'group'],
  desiredSection: async () => ({ users: [], groups: [] }),
  counts: async (ids) => new Map(ids.slice(0, 1).map((id) => [id, { users_active: 2, groups: 1 }])),
};

describe('the workspace feature registry', () => {
  it('puts a registered feature into the desired state, the counts, the dependents and the failure kinds', async () => {
    const removed: string[] = [];
    const registry = createFeatureRegistry([users, fakeFeature(removed)]);

    expect(
      await registry.desiredSections({ serviceId: 'SVC', idBase: 1_000_000, publicAddress: true }),
    ).toEqual({
      users: [],
      groups: [],
      samba: {
        shares: [share('s1000000')],
        settings: { workgroup: 'SVC', server_string: '', min_protocol: 'SMB3' },
      },
    });

    const counts = await registry.counts(['a', 'b', 'c']);
    expect(Object.fromEntries(counts)).toEqual({
      a: { users_active: 2, groups: 1, shares: 7 },
      b: { users_active: 0, groups: 0, shares: 8 },
      c: { users_active: 0, groups: 0, shares: 9 },
    });

    expect(registry.dependents).toHaveLength(1);
    const change = { serviceId: 'a', generation: 3, at: new Date() };
    for (const dependent of registry.dependents) {
      await dependent.userRemoved({} as Tx, { ...change, userId: 'u1' });
      await dependent.groupRemoved({} as Tx, { ...change, groupId: 'g1' });
    }
    expect(removed).toEqual(['user u1', 'group g1']);

    expect(registry.featureOfFailure('fake_thing')).toBe('samba');
    expect(registry.featureOfFailure('user')).toBe('users');
    expect(registry.featureOfFailure('vpn_user')).toBeUndefined();
  });

  it('without features: no sections and nothing counted but the always-counted users and groups', async () => {
    const registry = createFeatureRegistry([]);
    expect(await registry.desiredSections({ serviceId: 'a', idBase: 1, publicAddress: true })).toEqual({});
    expect(Object.fromEntries(await registry.counts(['a']))).toEqual({ a: { users_active: 0, groups: 0 } });
  });

  it('refuses a feature registered twice, one failure kind claimed twice, one section given twice', async () => {
    expect(() => createFeatureRegistry([users, { ...users }])).toThrow(/registered twice/);
    expect(() => createFeatureRegistry([users, { feature: 'nfs', failureKinds: ['group'] }])).toThrow(
      /claimed by users and nfs/,
    );
    const twice = createFeatureRegistry([
      users,
      { feature: 'nfs', desiredSection: async () => ({ users: [] }) },
    ]);
    await expect(twice.desiredSections({ serviceId: 'a', idBase: 1, publicAddress: true })).rejects.toThrow(
      /given by users and nfs/,
    );
  });

  it('hands a report section to the feature that stores its key only, and nothing when the section is absent', async () => {
    const REPORT = { service_id: 'a', observed_generation: 1, ok: true, drivers: [], failures: [] };
    const heard: Array<[string, string, unknown]> = [];
    const store =
      (key: string) =>
      async (_tx: Tx, { serviceId }: { serviceId: string }, section: unknown) =>
        void heard.push([key, serviceId, section]);
    const vpnFeature: WorkspaceFeature = { feature: 'vpn', reports: { vpn: store('vpn') } };
    // One feature may store several keys (FTP stores `ftp` and `sftp`).
    const ftpFeature: WorkspaceFeature = {
      feature: 'ftp',
      reports: { ftp: store('ftp'), sftp: store('sftp') },
    };
    const registry = createFeatureRegistry([users, vpnFeature, ftpFeature]);
    const at = new Date();
    const afterCommit = () => undefined;
    const vpn = { sessions: [], usage: [] };
    await registry.storeReports(
      {} as Tx,
      { serviceId: 'a', at, accountId: 'acc', report: REPORT, planBytes: 1, afterCommit },
      { vpn },
    );
    await registry.storeReports(
      {} as Tx,
      { serviceId: 'b', at, accountId: 'acc', report: REPORT, planBytes: 1, afterCommit },
      {},
    );
    await registry.storeReports(
      {} as Tx,
      { serviceId: 'c', at, accountId: 'acc', report: REPORT, planBytes: 1, afterCommit },
      { vpn: undefined },
    );
    expect(heard).toEqual([['vpn', 'a', vpn]]);
    const sftp = { sessions: [] };
    await registry.storeReports(
      {} as Tx,
      { serviceId: 'd', at, accountId: 'acc', report: REPORT, planBytes: 1, afterCommit },
      { sftp },
    );
    expect(heard.at(-1)).toEqual(['sftp', 'd', sftp]);
    // A feature told of every report hears each, sections or not, before the keyed stores.
    const every: string[] = [];
    const watcher: WorkspaceFeature = {
      feature: 'monitoring',
      everyReport: async (_tx, { serviceId }) => void every.push(serviceId),
    };
    await createFeatureRegistry([watcher]).storeReports(
      {} as Tx,
      { serviceId: 'e', at, accountId: 'acc', report: REPORT, planBytes: 1, afterCommit },
      {},
    );
    expect(every).toEqual(['e']);
  });

  it('hands every factory the dependents of all the features, made after them', () => {
    const removed: string[] = [];
    let dependentsSeen: () => readonly DirectoryDependent[] = () => [];
    const directory: WorkspaceFeatureFactory = ({ dependents }) => {
      dependentsSeen = dependents;
      return { feature: 'users' };
    };
    const registry = createWorkspaceFeatures(
      {
        db: {} as Db,
        changes: {} as WorkspaceChanges,
        nodeCalls: {} as NodeCalls,
        publicUrl: 'http://localhost',
        plans: {} as PlanFacts,
        recordActivity: async () => undefined,
        limiter: {} as RateLimiter,
        serverSecret: 'a test secret of the server, long enough',
        secureCookies: false,
        runSoon: async () => undefined,
      },
      [directory, () => fakeFeature(removed)],
    );
    expect(registry.features.map((feature) => feature.feature)).toEqual(['users', 'samba']);
    expect(dependentsSeen()).toEqual(registry.dependents);
    expect(dependentsSeen()).toHaveLength(1);
  });
});
