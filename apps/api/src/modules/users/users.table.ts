import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { Address, Company } from '@debesis/contract';
import { timestampColumns, updatedAtColumn, uuidPrimaryKey } from '../../db/columns.ts';

/** Account owners. An account is one user today; `account_id` on customer data is this id. */
export const users = pgTable(
  'users',
  {
    id: uuidPrimaryKey(),
    /** Stored lower-cased; unique. */
    email: text('email').notNull(),
    /** argon2id; null for accounts that only sign in through OAuth. */
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    active: boolean('active').notNull().default(true),
    accountType: text('account_type', { enum: ['personal', 'business'] })
      .notNull()
      .default('personal'),
    emailVerified: boolean('email_verified').notNull().default(false),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    loginCount: integer('login_count').notNull().default(0),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    roles: jsonb('roles').$type<string[]>().notNull().default([]),
    country: text('country'),
    /**
     * The country given at registration (or, for an account registered without one, the first
     * country it set): the account's piece of VAT evidence. A profile change moves `country`, never
     * this, so editing the profile cannot change the VAT (see orders/vat-situation.ts).
     */
    registrationCountry: text('registration_country'),
    phone: text('phone'),
    address: jsonb('address').$type<Address>(),
    /** Business details; fixed once set (support changes them). */
    company: jsonb('company').$type<Company>(),
    ...timestampColumns(),
  },
  (table) => [uniqueIndex('users_email_unique').on(table.email)],
);

export const userSettings = pgTable('user_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  theme: text('theme', { enum: ['light', 'dark', 'system'] })
    .notNull()
    .default('light'),
  language: text('language', { enum: ['en', 'lt'] })
    .notNull()
    .default('en'),
  notificationEmail: boolean('notification_email').notNull().default(true),
  notificationBrowser: boolean('notification_browser').notNull().default(true),
  updatedAt: updatedAtColumn(),
});
