import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestampColumns } from '../../db/columns.ts';
import { workspaceColumns } from '../services/service-columns.ts';

/**
 * A label of a workspace (key=value, the contract's labels.ts): keyed by its service and its key,
 * so a key is there once per workspace. It goes with its service (the foreign key cascades). It
 * holds no `changed_generation`: the node never hears of labels.
 */
export const serviceLabels = pgTable(
  'service_labels',
  {
    ...workspaceColumns(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    ...timestampColumns(),
  },
  (table) => [
    primaryKey({ name: 'service_labels_pk', columns: [table.serviceId, table.key] }),
    index('service_labels_account_idx').on(table.accountId),
  ],
);
