// What the product does, in one list: each feature's one id (decision 19: the API's workspace
// features, the web app's tabs and the contract's catalogues name it so) and whether it has
// shipped. The public pages (home, FAQ, docs, solutions, about, terms) and the sign-in page show a
// feature's texts only once it has shipped: a text about a feature that has not stays in the
// repository, unseen, until the issue that ships the feature turns it to `true` here — one line —
// and every page mentioning it follows.

// Their order is the product's: the features' parts are gathered in it (the catalogues and node
// parts here, the API's workspace features), whatever order their registration files list them in.
const SHIPPED = {
  // Issues 1-10, 15-21, 37.
  accounts: true,
  plans: true,
  payments: true,
  invoices: true,
  storage: true,
  /** Users and groups: the workspace's directory. */
  users: true,
  samba: true,
  vpn: true,
  nfs: true,
  ftp: true,
  ldap: true,
  backups: true,
  /** The storage's snapshots, browsed and restored from (durability, issue 37). */
  snapshots: true,
  shareLinks: true,
  /** Subusers and their two-factor sign-in. */
  subusers: true,
  /** The portal where a workspace's Linux users change their own password. */
  linuxPortal: true,
  activity: true,
  /** Monitoring with alerts: activity from the daemons, quota, tasks, status. */
  monitoring: true,
  labels: true,
  /** The workspace's own address and link: reachability, traffic, the plan's bandwidth. */
  network: true,
} as const satisfies Record<string, boolean>;

export type Feature = keyof typeof SHIPPED;

export const FEATURES = Object.keys(SHIPPED) as readonly Feature[];

export const SHIPPED_FEATURES: readonly Feature[] = FEATURES.filter((feature) => SHIPPED[feature]);

/** `parts` (one per feature) in the features' order: what a registration file lists, gathered. */
export function inFeatureOrder<Part extends { readonly feature: Feature }>(parts: Iterable<Part>): Part[] {
  return [...parts].sort((a, b) => FEATURES.indexOf(a.feature) - FEATURES.indexOf(b.feature));
}
