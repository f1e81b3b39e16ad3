// The features' node parts, one line each: a new feature's part is registered by its line here
// (node-parts.ts gathers them in the features' order, whatever the order here).
export { backupsNodePart } from './backups/backups-node.ts';
export { ftpNodePart } from './ftp/ftp-node.ts';
export { ldapNodePart } from './ldap/ldap-node.ts';
export { monitoringNodePart } from './monitoring/monitoring-node.ts';
export { nfsNodePart } from './nfs/nfs-node.ts';
export { sambaNodePart } from './samba/samba-node.ts';
export { snapshotsNodePart } from './snapshots/snapshots.ts';
export { usersNodePart } from './users/users-node.ts';
export { vpnNodePart } from './vpn/vpn-node.ts';
