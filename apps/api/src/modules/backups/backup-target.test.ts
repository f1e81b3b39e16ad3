// Backups off the node (docs/features/backups.md "Backups off the node"): BACKUP_TARGET_URL checked
// at start without its words in the error, and the desired state naming each workspace's repository
// on the target with a key made once, kept sealed, and the same for any node and API process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { WorkspaceDesiredState } from '@debesis/contract';
import { ConfigError, loadConfig } from '../../config.ts';
import { ownerWithService, setService, useWorkspaceTestApp } from '../directory/workspace.test-support.ts';
import { isBackupTargetUrl, repositoryUrl } from './backup-target.config.ts';
import { createBackupTarget } from './backup-target.ts';
import { backupRepositoryKeys } from './backups.table.ts';

const BASE = 'rest:http://node:Target-Secret-77@127.0.0.1:8000/';

describe('the backup target variable (unit)', () => {
  it('puts each workspace in a folder of its own under the base', () => {
    expect(repositoryUrl(BASE, 'abc')).toBe('rest:http://node:Target-Secret-77@127.0.0.1:8000/abc');
    expect(repositoryUrl('sftp:backup@10.0.0.9:/srv/backups', 'abc')).toBe(
      'sftp:backup@10.0.0.9:/srv/backups/abc',
    );
    expect(repositoryUrl('sftp:backup@10.0.0.9:', 'abc')).toBe('sftp:backup@10.0.0.9:abc');
    expect(repositoryUrl('s3:https://s3.example.net/bucket/', 'abc')).toBe(
      's3:https://s3.example.net/bucket/abc',
    );
  });

  it('takes the backends restic opens here and nothing else', () => {
    for (const url of [BASE, 'rest:https://h/', 'sftp:u@h:/p', 'sftp:h:', 's3:https://h/b'])
      expect(isBackupTargetUrl(url), url).toBe(true);
    for (const url of [
      'http://h/',
      'rest:ftp://h/',
      'sftp:-oProxyCommand=x:/p',
      'rest:http://h/ x',
      's3:',
      '/srv',
    ])
      expect(isBackupTargetUrl(url), url).toBe(false);
  });

  it('stops the API at start on a bad one, without its words (a password may be in them)', () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'debesis-config-'));
    try {
      expect(() => loadConfig({ BACKUP_TARGET_URL: 'ftp://node:Target-Secret-77@h/' }, cwd)).toThrow(
        ConfigError,
      );
      try {
        loadConfig({ BACKUP_TARGET_URL: 'ftp://node:Target-Secret-77@h/' }, cwd);
      } catch (error) {
        expect((error as Error).message).toMatch(/BACKUP_TARGET_URL: not a backup target/);
        expect((error as Error).message).not.toContain('Target-Secret-77');
      }
      expect(loadConfig({ BACKUP_TARGET_URL: '' }, cwd).BACKUP_TARGET_URL).toBeUndefined();
      expect(loadConfig({}, cwd).BACKUP_TARGET_URL).toBeUndefined();
      expect(loadConfig({ BACKUP_TARGET_URL: BASE }, cwd).BACKUP_TARGET_URL).toBe(BASE);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe('workspace repositories on the backup target', () => {
  const { ctx, node } = useWorkspaceTestApp({
    env: { BACKUP_TARGET_URL: BASE },
    node: { name: 'target-node', addresses: ['10.18.0.1'] },
  });

  const desiredOf = async (serviceId: string): Promise<WorkspaceDesiredState | undefined> =>
    (await node.desired()).workspaces.find((workspace) => workspace.service_id === serviceId);

  async function placed(last: number): Promise<string> {
    const { serviceId } = await ownerWithService(ctx);
    await setService(ctx, serviceId, {
      nodeId: node.id,
      address: `10.18.1.${last}`,
      idBase: 8_500_000 + last * 10_000,
    });
    return serviceId;
  }

  it('names the repository at <base>/<service id> with a key of its own, made once and kept sealed', async () => {
    const first = await placed(1);
    const second = await placed(2);
    const repository = (await desiredOf(first))?.backup?.repository;
    expect(repository?.url).toBe(`rest:http://node:Target-Secret-77@127.0.0.1:8000/${first}`);
    expect(repository?.password).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const other = (await desiredOf(second))?.backup?.repository;
    expect(other?.password).not.toBe(repository!.password);

    // Another API process (a node fetching elsewhere, after a restart) gives the same key.
    const again = createBackupTarget({ db: ctx.database.db, serverSecret: ctx.config.jwtSecret, url: BASE });
    expect(await again.repository(first)).toEqual(repository);
    const rows = await ctx.database.db
      .select()
      .from(backupRepositoryKeys)
      .where(eq(backupRepositoryKeys.serviceId, first));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.keySealed).not.toContain(repository!.password);

    // Under another server secret the key does not open: nothing is named (the node keeps its own).
    const stranger = createBackupTarget({ db: ctx.database.db, serverSecret: 'x'.repeat(48), url: BASE });
    expect(await stranger.repository(first)).toBeUndefined();
    // Without a target, nothing is named and nothing is made.
    const none = createBackupTarget({
      db: ctx.database.db,
      serverSecret: ctx.config.jwtSecret,
      url: undefined,
    });
    expect(await none.repository(first)).toBeUndefined();
    expect(await none.repositories(first)).toEqual({});
  });

  it('names the copy of the backup clients’ repositories beside it, under the same key', async () => {
    const serviceId = await placed(3);
    const backup = (await desiredOf(serviceId))?.backup;
    expect(backup?.clients_repository).toEqual({
      url: `rest:http://node:Target-Secret-77@127.0.0.1:8000/${serviceId}-clients`,
      password: backup?.repository?.password,
    });
  });
});
