// What the product does today, in one list. The public pages (home, FAQ, docs, solutions, about,
// terms) and the sign-in page show a feature's texts only once it is in SHIPPED_FEATURES: a text
// about a feature that has not shipped stays in the repository, unseen, until the issue that
// ships the feature adds it here — one line — and every page mentioning it follows.

export const FEATURES = [
  // Shipped (issues 1-10, 15-21, 37).
  'accounts',
  'plans',
  'payments',
  'invoices',
  'samba',
  'users',
  'activity',
  'storage',
  'vpn',
  'nfs',
  'ftp',
  'ldap',
  'backups',
  'shareLinks',
  /** Subusers and their two-factor sign-in. */
  'subusers',
  /** The portal where a workspace's Linux users change their own password. */
  'linuxPortal',
  /** Monitoring with alerts: activity from the daemons, quota, tasks, status. */
  'monitoring',
  /** The storage's snapshots, browsed and restored from (durability, issue 37). */
  'snapshots',
  /** The workspace's own address and link: reachability, traffic, the plan's bandwidth. */
  'network',
] as const;
export type Feature = (typeof FEATURES)[number];

export const SHIPPED_FEATURES: readonly Feature[] = [
  'accounts',
  'plans',
  'payments',
  'invoices',
  'samba',
  'users',
  'activity',
  'storage',
  'vpn',
  'nfs',
  'ftp',
  'ldap',
  'backups',
  'shareLinks',
  'subusers',
  'linuxPortal',
  'monitoring',
  'snapshots',
  'network',
];
