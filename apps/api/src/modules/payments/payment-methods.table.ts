import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accountIdColumn, createdAtColumn, timestampColumns, uuidPrimaryKey } from '../../db/columns.ts';

/**
 * The account's customer at a provider (Stripe: a Customer), made once when a card is first kept.
 * Signed provider events name a card by its customer; this says whose account that is.
 */
export const paymentCustomers = pgTable(
  'payment_customers',
  {
    accountId: accountIdColumn(),
    provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
    customerRef: text('customer_ref').notNull(),
    createdAt: createdAtColumn(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.provider] }),
    uniqueIndex('payment_customers_ref_unique').on(table.provider, table.customerRef),
  ],
);

/**
 * The card an account keeps for renewals: the provider's references and what Billing shows.
 * Never the card number (the provider holds the card). One per account: a newer one replaces it.
 */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: uuidPrimaryKey(),
    accountId: accountIdColumn(),
    provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
    customerRef: text('customer_ref').notNull(),
    /** The provider's id of the card (Stripe: the PaymentMethod `pm_…`). */
    methodRef: text('method_ref').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    /** Four digits. */
    expYear: integer('exp_year').notNull(),
    /** When the provider attached it (its event's time): a late older event never replaces a newer card. */
    createdAt: createdAtColumn(),
    /** When the owner was mailed that this card is about to expire (once per card). */
    expiryMailedAt: timestamp('expiry_mailed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('payment_methods_account_unique').on(table.accountId),
    index('payment_methods_expiry_idx').on(table.expYear, table.expMonth),
  ],
);

/** A card form opened to keep a card without paying (Billing → Replace). */
export const paymentMethodSetups = pgTable('payment_method_setups', {
  id: text('id').primaryKey(),
  accountId: accountIdColumn(),
  provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
  providerSetupId: text('provider_setup_id'),
  status: text('status', { enum: ['open', 'completed', 'failed'] }).notNull(),
  returnUrl: text('return_url').notNull(),
  ...timestampColumns(),
});
