// `ops secrets reseal`: every sealed column sealed again under the current JWT_SECRET's keys, so
// that the previous secrets (JWT_SECRET_PREVIOUS) can be dropped
// (docs/operations/rotating-secrets.md). Batches of rows in key order, each written only if it
// still holds what was read (an owner who set a new webhook meanwhile keeps it); a value already
// under the current key is left alone, so running it again changes nothing. A value no configured
// secret opens is counted, not touched: it was unreadable before and stays so. Backup codes are
// kept as HMACs, which cannot be made again without the codes: those made under a previous secret
// are counted, for their owners to renew before that secret is dropped (the subuser's TOTP keeps
// working either way).
import {
  and,
  asc,
  countDistinct,
  eq,
  getTableName,
  gt,
  isNotNull,
  isNull,
  not,
  count as rows,
  like,
  type SQL,
} from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ServerSecret, Sealer } from '../../crypto/server-keys.ts';
import type { Db } from '../../db/database.ts';
import { repositoryKeySealer } from '../../modules/backups/backup-target.ts';
import { backupRepositoryKeys } from '../../modules/backups/backups.table.ts';
import { monitoringWebhooks } from '../../modules/monitoring/monitoring.table.ts';
import { webhookSecretSealer } from '../../modules/monitoring/webhooks.ts';
import { shareTokenSealer } from '../../modules/share-links/share-link-tokens.ts';
import { shareLinks } from '../../modules/share-links/share-links.table.ts';
import { backupCodeHashPrefix, totpSealer } from '../../modules/subusers/second-factor.ts';
import { subuserBackupCodes, subusers } from '../../modules/subusers/subusers.table.ts';

export const RESEAL_BATCH = 500;

export interface ResealCount {
  /** `table.column`, as in the database. */
  column: string;
  resealed: number;
  /** Already under the current key. */
  current: number;
  /** Opened by no configured secret: left as it was. */
  unreadable: number;
}

interface SealedColumn {
  table: PgTable;
  /** The row's key (unique, ordered: the batches follow it). */
  key: PgColumn;
  /** The sealed column, and its property name in the table's schema (what `set` takes). */
  value: PgColumn;
  property: string;
  sealer: Sealer;
}

/** Every column holding a sealed value, with the sealer of the feature that wrote it. */
function sealedColumns(secret: ServerSecret): SealedColumn[] {
  const totp = totpSealer(secret);
  return [
    {
      table: shareLinks,
      key: shareLinks.id,
      value: shareLinks.tokenSealed,
      property: 'tokenSealed',
      sealer: shareTokenSealer(secret),
    },
    { table: subusers, key: subusers.id, value: subusers.totpSecret, property: 'totpSecret', sealer: totp },
    { table: subusers, key: subusers.id, value: subusers.totpPending, property: 'totpPending', sealer: totp },
    {
      table: monitoringWebhooks,
      key: monitoringWebhooks.accountId,
      value: monitoringWebhooks.secretSealed,
      property: 'secretSealed',
      sealer: webhookSecretSealer(secret),
    },
    {
      table: backupRepositoryKeys,
      key: backupRepositoryKeys.serviceId,
      value: backupRepositoryKeys.keySealed,
      property: 'keySealed',
      sealer: repositoryKeySealer(secret),
    },
  ];
}

async function resealColumn(db: Db, column: SealedColumn, batch: number): Promise<ResealCount> {
  const count: ResealCount = {
    column: `${getTableName(column.table)}.${column.value.name}`,
    resealed: 0,
    current: 0,
    unreadable: 0,
  };
  let after: string | undefined;
  for (;;) {
    const conditions: SQL[] = [isNotNull(column.value)];
    if (after !== undefined) conditions.push(gt(column.key, after));
    const rows = (await db
      .select({ key: column.key, sealed: column.value })
      .from(column.table)
      .where(and(...conditions))
      .orderBy(asc(column.key))
      .limit(batch)) as Array<{ key: string; sealed: string }>;
    for (const { key, sealed } of rows) {
      if (column.sealer.isCurrent(sealed)) {
        count.current += 1;
        continue;
      }
      const again = column.sealer.reseal(sealed);
      if (again === undefined) {
        count.unreadable += 1;
        continue;
      }
      const written = await db
        .update(column.table)
        .set({ [column.property]: again })
        .where(and(eq(column.key, key), eq(column.value, sealed)))
        .returning({ key: column.key });
      // Changed since it was read: what is there now was sealed by the running API, under the current key.
      if (written.length === 1) count.resealed += 1;
      else count.current += 1;
    }
    if (rows.length < batch) return count;
    after = rows.at(-1)?.key;
  }
}

export interface ResealReport {
  columns: ResealCount[];
  /** Unused backup codes not made under the current secret, and the subusers holding them. */
  staleBackupCodes: { codes: number; subusers: number };
}

/** Reseals every sealed column under the current secret, one column after another. */
export async function resealSecrets(
  db: Db,
  secret: ServerSecret,
  batch = RESEAL_BATCH,
): Promise<ResealReport> {
  const columns: ResealCount[] = [];
  for (const column of sealedColumns(secret)) columns.push(await resealColumn(db, column, batch));
  const [stale] = await db
    .select({ codes: rows(), subusers: countDistinct(subuserBackupCodes.subuserId) })
    .from(subuserBackupCodes)
    .where(
      and(
        isNull(subuserBackupCodes.usedAt),
        // A key id is base64url: its `_` would be LIKE's any-character.
        not(like(subuserBackupCodes.codeHash, `${backupCodeHashPrefix(secret).replaceAll('_', '\\_')}%`)),
      ),
    );
  return { columns, staleBackupCodes: { codes: stale?.codes ?? 0, subusers: stale?.subusers ?? 0 } };
}
