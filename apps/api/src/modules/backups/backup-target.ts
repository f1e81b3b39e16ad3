// Backups off the node (docs/features/backups.md "Backups off the node"; issue 37 part 5): when the
// operator sets BACKUP_TARGET_URL, every workspace's restic repository (the provider's daily backup
// and the owner's schedules) lives on that target at `<base>/<service id>`, and the desired state's
// `backup.repository` names it with its key. The key is the API's, not a node's: made here once per
// workspace (32 random bytes), kept sealed (AES-256-GCM under a key derived from the server's
// secret, as share links' tokens and webhooks' secrets are), and given to whichever node runs the
// workspace, so a dead node takes neither the backups nor the key with it.
//
// The backup clients' repositories are copied beside it, to `<base>/<service id>-clients` under the
// same key (agent: backup/client-mirror.ts).
//
// Unset, nothing is named and each node keeps its own repository and key as before. A key that
// no longer unseals (JWT_SECRET changed without the old one in JWT_SECRET_PREVIOUS) names nothing
// either: the node then backs up into a repository of its own rather than stopping every backup,
// and the repository on the target is readable again once the secret is put back
// (docs/operations/rotating-secrets.md).
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { BackupSectionState } from '@debesis/contract';
import { createSealer, deriveServerKeys, type ServerSecret } from '../../crypto/server-keys.ts';
import type { Db } from '../../db/database.ts';
import { repositoryUrl } from './backup-target.config.ts';
import { backupRepositoryKeys } from './backups.table.ts';

export type BackupRepository = NonNullable<BackupSectionState['repository']>;

/** The sealer of repository keys (also `ops secrets reseal`'s). */
export const repositoryKeySealer = (serverSecret: ServerSecret) =>
  createSealer(deriveServerKeys(serverSecret, 'debesis backups', 'repository key seal'));

export function createBackupTarget(deps: { db: Db; serverSecret: ServerSecret; url: string | undefined }) {
  const sealer = repositoryKeySealer(deps.serverSecret);
  const sealedKey = async (serviceId: string) =>
    (
      await deps.db
        .select({ keySealed: backupRepositoryKeys.keySealed })
        .from(backupRepositoryKeys)
        .where(eq(backupRepositoryKeys.serviceId, serviceId))
    )[0]?.keySealed;

  /** The workspace's repository on the target with its key, made the first time; none without a target. */
  async function repository(serviceId: string): Promise<BackupRepository | undefined> {
    if (!deps.url) return undefined;
    let sealed = await sealedKey(serviceId);
    if (sealed === undefined) {
      // Two API processes may get here at once: the first key stored is the one kept.
      await deps.db
        .insert(backupRepositoryKeys)
        .values({ serviceId, keySealed: sealer.seal(randomBytes(32).toString('base64url')) })
        .onConflictDoNothing();
      sealed = await sealedKey(serviceId);
    }
    const password = sealed === undefined ? undefined : sealer.unseal(sealed);
    if (password === undefined) return undefined;
    return { url: repositoryUrl(deps.url, serviceId), password };
  }

  return {
    repository,

    /**
     * The desired state's repositories on the target: the workspace's, and beside it the copy of
     * its backup clients' repositories (`<base>/<service id>-clients`, the same key); none without
     * a target.
     */
    async repositories(
      serviceId: string,
    ): Promise<Pick<BackupSectionState, 'repository' | 'clients_repository'>> {
      const own = await repository(serviceId);
      if (!own || !deps.url) return {};
      const clients = { url: repositoryUrl(deps.url, `${serviceId}-clients`), password: own.password };
      return { repository: own, clients_repository: clients };
    },
  };
}

export type BackupTarget = ReturnType<typeof createBackupTarget>;
