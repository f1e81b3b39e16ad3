// The types of the service tabs' namespaces, for i18n's typed `t()` (i18n.ts). Each namespace
// arrives with its tab (`<tab>/tab.ts`), so the app's entry carries none of these texts.
import type { BackupsTabMessages } from './backups/messages/backups.en.ts';
import type { ShareLinksTabMessages } from './share-links/messages/share-links.en.ts';
import type { LdapTabMessages } from './ldap/messages/ldap.en.ts';
import type { MonitoringTabMessages } from './monitoring/messages/monitoring.en.ts';
import type { NfsTabMessages } from './nfs/messages/nfs.en.ts';
import type { FtpTabMessages } from './ftp/messages/ftp.en.ts';
import type { OverviewTabMessages } from './overview/messages/overview.en.ts';
import type { SambaTabMessages } from './samba/messages/samba.en.ts';
import type { SettingsTabMessages } from './settings/messages/settings.en.ts';
import type { SubusersTabMessages } from './subusers/messages/subusers.en.ts';
import type { UsersTabMessages } from './users/messages/users.en.ts';
import type { VpnTabMessages } from './vpn/messages/vpn.en.ts';

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
