// The service page's tabs, one line per feature folder: a new tab is registered by its line here.
// The page shows them by their `order` (define-service-tab.ts), whatever the order here.
export { activityTab } from '../activity/tab.ts';
export { backupsTab } from './backups/tab.ts';
export { ftpAdvancedTab, ftpTab } from './ftp/tab.ts';
export { labelsTab } from './labels/tab.ts';
export { ldapTab } from './ldap/tab.ts';
export { monitoringTab } from './monitoring/tab.ts';
export { nfsTab } from './nfs/tab.ts';
export { overviewTab } from './overview/tab.ts';
export { sambaTab } from './samba/tab.ts';
export { settingsTab } from './settings/tab.ts';
export { shareLinksTab } from './share-links/tab.ts';
export { subusersTab } from './subusers/tab.ts';
export { usersTab } from './users/tab.ts';
export { vpnTab } from './vpn/tab.ts';
