// The workspace features this API has, one line each: a new feature registers its factory here
// (docs/adding-a-feature.md). They are made in the features' order (the contract's FEATURES),
// whatever the order here. This lives at the composition root, beside app.ts, so the workspace
// module that runs features never imports them: the features depend on it, not the other way round.
export { createBackupsFeature } from './modules/backups/backups.feature.ts';
export { createDirectoryFeature } from './modules/directory/directory.feature.ts';
export { createFtpFeature } from './modules/ftp/ftp.feature.ts';
export { createLabelsFeature } from './modules/labels/labels.feature.ts';
export { createLdapFeature } from './modules/ldap/ldap.feature.ts';
export { createLinuxUserFeature } from './modules/linux-user/linux-user.feature.ts';
export { createMonitoringFeature } from './modules/monitoring/monitoring.feature.ts';
export { createNetworkFeature } from './modules/network/network.feature.ts';
export { createNfsFeature } from './modules/nfs/nfs.feature.ts';
export { createSambaFeature } from './modules/samba/samba.feature.ts';
export { createShareLinksFeature } from './modules/share-links/share-links.feature.ts';
export { createSnapshotsFeature } from './modules/snapshots/snapshots.feature.ts';
export { createSubusersFeature } from './modules/subusers/subusers.feature.ts';
export { createVpnFeature } from './modules/vpn/vpn.feature.ts';
