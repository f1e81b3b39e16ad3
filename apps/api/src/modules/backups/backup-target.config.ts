// The backup target's variable of the API's configuration (docs/features/backups.md "Backups off
// the node"; backup-target.ts). `config.ts` spreads `backupTargetEnvironmentShape` into its schema,
// so it is parsed, and a bad value stops the API at start, with every other variable. Its value is
// never in the error: a REST server's password may be in it.
import { z } from 'zod';
import { BACKUP_TARGET_URL_PATTERN } from '@debesis/contract';

/**
 * The workspace's repository under the base: `rest:http://host:8000/` → `rest:http://host:8000/<id>`,
 * `sftp:user@host:/srv/backups` → `sftp:user@host:/srv/backups/<id>`, `sftp:host:` → `sftp:host:<id>`
 * (ssh's home folder).
 */
export function repositoryUrl(base: string, serviceId: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return trimmed.endsWith(':') ? `${trimmed}${serviceId}` : `${trimmed}/${serviceId}`;
}

/** Whether a base gives repositories restic opens and the contract carries. */
export const isBackupTargetUrl = (url: string) =>
  BACKUP_TARGET_URL_PATTERN.test(repositoryUrl(url, '00000000-0000-0000-0000-000000000000')) &&
  // A base of nothing but the backend's name (`s3:`, `rest:http://`) names no place.
  !/^(rest:https?:\/\/|sftp:|s3:)$/.test(url.replace(/\/+$/, ''));

export const backupTargetEnvironmentShape = {
  BACKUP_TARGET_URL: z
    .string()
    .trim()
    .optional()
    .refine((value) => !value || isBackupTargetUrl(value), {
      message:
        'not a backup target restic opens here: rest:http(s)://[user:password@]host:port/, sftp:user@host:/path or s3:https://host/bucket, without spaces',
    })
    .transform((value) => (value ? value : undefined))
    .describe(
      "Where workspaces' backup repositories live off the storage nodes (docs/features/backups.md): a " +
        'restic repository base, `rest:http(s)://[user:password@]host:port/`, `sftp:user@host:/path` or ' +
        "`s3:https://host/bucket`; each workspace's is `<base>/<service id>`. Checked at start, never " +
        "printed (it may hold a password). Unset or empty: each node keeps its workspaces' repositories itself.",
    ),
};
