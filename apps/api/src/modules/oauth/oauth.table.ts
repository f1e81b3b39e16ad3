import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { OAUTH_PROVIDERS } from '@debesis/contract';
import { users } from '../users/users.table.ts';
import { createdAtColumn, uuidPrimaryKey } from '../../db/columns.ts';

/**
 * A sign-in that went to a provider and has not come back yet: what the callback needs to finish
 * it. Single use (the callback deletes the row it reads) and short-lived.
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    id: uuidPrimaryKey(),
    /** SHA-256 of the `state` parameter. */
    stateHash: text('state_hash').notNull().unique(),
    provider: text('provider', { enum: OAUTH_PROVIDERS }).notNull(),
    /** PKCE verifier; only its S256 challenge went to the provider. */
    codeVerifier: text('code_verifier').notNull(),
    /** OpenID Connect nonce; null for plain OAuth 2.0 (GitHub). */
    nonce: text('nonce'),
    /** Where the web app goes after signing in: a same-site path. */
    redirectPath: text('redirect_path').notNull(),
    /** SHA-256 of the browser-binding cookie, so only the browser that started may finish. */
    bindingHash: text('binding_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAtColumn(),
  },
  (table) => [index('oauth_states_expires_idx').on(table.expiresAt)],
);

/** An account at a provider (provider + subject) linked to one of our users. */
export const oauthIdentities = pgTable(
  'oauth_identities',
  {
    id: uuidPrimaryKey(),
    provider: text('provider', { enum: OAUTH_PROVIDERS }).notNull(),
    /** The provider's stable id of the person (`sub`; GitHub's numeric user id). */
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The provider's address when the link was made (it may change there later). */
    email: text('email').notNull(),
    createdAt: createdAtColumn(),
  },
  (table) => [
    uniqueIndex('oauth_identities_provider_subject_unique').on(table.provider, table.subject),
    index('oauth_identities_user_idx').on(table.userId),
  ],
);

/**
 * One-time codes the web app trades for tokens after a provider sign-in, so tokens never travel
 * in a URL. Stored as SHA-256 hashes; live 60 seconds; used once.
 */
export const oauthLoginCodes = pgTable(
  'oauth_login_codes',
  {
    id: uuidPrimaryKey(),
    codeHash: text('code_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: OAUTH_PROVIDERS }).notNull(),
    bindingHash: text('binding_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAtColumn(),
  },
  (table) => [index('oauth_login_codes_expires_idx').on(table.expiresAt)],
);
