// Every table, gathered for drizzle-kit and the typed query builder. Each table is defined in
// the module that owns it; only that module's queries file may touch it.
export * from '../modules/nodes/nodes.table.ts';
export * from '../modules/users/users.table.ts';
export * from '../modules/auth/auth.table.ts';
export * from '../modules/rate-limits/rate-limits.table.ts';
export * from '../modules/activity/activity.table.ts';
export * from '../modules/oauth/oauth.table.ts';
export * from '../modules/products/products.table.ts';
export * from '../modules/orders/orders.table.ts';
export * from '../modules/payments/payments.table.ts';
export * from '../modules/services/services.table.ts';
export * from '../modules/plan-changes/plan-changes.table.ts';
export * from '../modules/credits/credits.table.ts';
export * from '../modules/vies/vies.table.ts';
export * from '../modules/directory/directory.table.ts';
export * from '../modules/samba/samba.table.ts';
export * from '../modules/billing/billing.table.ts';
export * from '../modules/contact/contact.table.ts';
export * from '../modules/analytics/analytics.table.ts';
export * from '../modules/vpn/vpn.table.ts';
export * from '../modules/ldap/ldap.table.ts';
export * from '../modules/nfs/nfs.table.ts';
export * from '../modules/ftp/ftp.table.ts';
export * from '../modules/backups/backups.table.ts';
export * from '../modules/share-links/share-links.table.ts';
export * from '../modules/subusers/subusers.table.ts';
export * from '../modules/monitoring/monitoring.table.ts';
