// The features' catalogues, one line each: a new feature's catalogue is registered by its line here
// (catalogues.ts gathers them in the features' order, whatever the order here).
export { backupsCatalogue } from './backups/backups.catalogue.ts';
export { ftpCatalogue } from './ftp/ftp.catalogue.ts';
export { labelsCatalogue } from './labels/labels.catalogue.ts';
export { ldapCatalogue } from './ldap/ldap.catalogue.ts';
export { linuxPortalCatalogue } from './linux-portal/linux-portal.catalogue.ts';
export { monitoringCatalogue } from './monitoring/monitoring.catalogue.ts';
export { nfsCatalogue } from './nfs/nfs.catalogue.ts';
export { sambaCatalogue } from './samba/samba.catalogue.ts';
export { shareLinksCatalogue } from './share-links/share-links.catalogue.ts';
export { snapshotsCatalogue } from './snapshots/snapshots.catalogue.ts';
export { subusersCatalogue } from './subusers/subusers.catalogue.ts';
export { usersCatalogue } from './users/users.catalogue.ts';
export { vpnCatalogue } from './vpn/vpn.catalogue.ts';
