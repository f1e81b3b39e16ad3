import { boolean, integer, numeric, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { timestampColumns } from '../../db/columns.ts';

/** The plans on sale. Ids are stable slugs (`starter`, `mini`…) so links and orders keep meaning. */
export const products = pgTable('products', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** Base monthly price in minor units. */
  priceMinor: integer('price_minor').notNull(),
  currency: text('currency', { enum: ['EUR'] })
    .notNull()
    .default('EUR'),
  isActive: boolean('is_active').notNull().default(true),
  isRecurring: boolean('is_recurring').notNull().default(true),
  diskSpaceGb: integer('disk_space_gb').notNull(),
  allowedUsers: integer('allowed_users').notNull(),
  address: text('address', { enum: ['nat', 'dedicated'] }).notNull(),
  support: text('support', { enum: ['email', 'priority', '24/7'] }).notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
  ...timestampColumns(),
});

export const productOptions = pgTable('product_options', {
  id: serial('id').primaryKey(),
  productId: text('product_id')
    .notNull()
    .references(() => products.id, { onDelete: 'cascade' }),
  type: text('type', { enum: ['disk_space', 'users'] }).notNull(),
  /** Unit size: GB per block or users per unit. */
  unitValue: integer('unit_value').notNull(),
  /** Monthly price of one unit, minor units. */
  priceMinor: integer('price_minor').notNull(),
  defaultQuantity: integer('default_quantity').notNull().default(0),
});

export const productPeriods = pgTable(
  'product_periods',
  {
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    months: integer('months').notNull(),
    discountPercent: numeric('discount_percent', { precision: 5, scale: 2, mode: 'number' })
      .notNull()
      .default(0),
    isDefault: boolean('is_default').notNull().default(false),
  },
  (table) => [primaryKey({ columns: [table.productId, table.id] })],
);
