// The types of the service tabs' namespaces, for i18n's typed `t()` (i18n.ts). Each namespace
// arrives with its tab (service-tabs.ts), so the app's entry carries none of these texts.
import type { BackupsTabMessages } from './backups.en.ts';
import type { ShareLinksTabMessages } from './share-links.en.ts';
import type { LdapTabMessages } from './ldap.en.ts';
import type { MonitoringTabMessages } from './monitoring.en.ts';
import type { NfsTabMessages } from './nfs.en.ts';
import type { FtpTabMessages } from './ftp.en.ts';
import type { OverviewTabMessages } from './overview.en.ts';
import type { SambaTabMessages } from './samba.en.ts';
import type { SettingsTabMessages } from './settings.en.ts';
import type { SubusersTabMessages } from './subusers.en.ts';
import type { UsersTabMessages } from './users.en.ts';
import type { VpnTabMessages } from './vpn.en.ts';

export type ServiceTabResources = {
  overviewTab: OverviewTabMessages;
  usersTab: UsersTabMessages;
  sambaTab: SambaTabMessages;
  settingsTab: SettingsTabMessages;
  vpnTab: VpnTabMessages;
  nfsTab: NfsTabMessages;
  ftpTab: FtpTabMessages;
  ldapTab: LdapTabMessages;
  backupsTab: BackupsTabMessages;
  shareLinksTab: ShareLinksTabMessages;
  subusersTab: SubusersTabMessages;
  monitoringTab: MonitoringTabMessages;
};
