import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type {
  ShareLinkAccessResult,
  ShareLinkExpiry,
  ShareLinkType,
  StorageEntryType,
} from '@debesis/contract';
import { createdAtColumn, uuidPrimaryKey } from '../../db/columns.ts';
import { workspaceColumns } from '../services/service-columns.ts';

/**
 * A public share link (spec §3 "Public share link"). The token itself is never stored: its SHA-256
 * finds the link, and a copy sealed with a key derived from the server's secret lets the owner
 * copy the URL again (share-link-tokens.ts). `downloads` counts completed downloads only.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: uuidPrimaryKey(),
    ...workspaceColumns(),
    type: text('type').$type<ShareLinkType>().notNull(),
    target: text('target').notNull(),
    label: text('label'),
    itemType: text('item_type').$type<StorageEntryType>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    tokenSealed: text('token_sealed'),
    expiry: text('expiry').$type<ShareLinkExpiry>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    passwordHash: text('password_hash'),
    downloadLimit: integer('download_limit'),
    downloads: integer('downloads').notNull().default(0),
    ipAllow: jsonb('ip_allow').$type<string[]>().notNull().default([]),
    ipDeny: jsonb('ip_deny').$type<string[]>().notNull().default([]),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastAccessAt: timestamp('last_access_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (table) => [index('share_links_service_idx').on(table.serviceId, table.createdAt)],
);

/** Every attempt on a link: one row each, newest found by (link, id). */
export const shareLinkAccessLogs = pgTable(
  'share_link_access_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    ip: text('ip').notNull(),
    userAgent: text('user_agent').notNull(),
    result: text('result').$type<ShareLinkAccessResult>().notNull(),
    bytesSent: bigint('bytes_sent', { mode: 'number' }).notNull().default(0),
    path: text('path'),
  },
  (table) => [index('share_link_access_logs_link_idx').on(table.linkId, table.id)],
);
