// The tabs of a service's page (spec §2 "Service detail"), in one list that both the router
// (app/router.tsx: a child route per tab) and the page's tab bar (ServiceDetailPage) read. A tab
// is its path under /dashboard/services/{id}, its label, its code, its texts (an i18n namespace
// of its own, loaded with its code) and the feature it belongs to: a tab of a feature not yet in
// SHIPPED_FEATURES is neither routed nor listed. Adding a tab: one entry here, its component and
// its texts (<tab>/messages/<tab>.{en,lt}.ts). This file is in the app's entry: code comes by import().
import { SHIPPED_FEATURES, type Feature } from '@debesis/contract';
import type { ParseKeys } from 'i18next';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { lazyRoute } from '../../app/route-tree.tsx';
import { loadNamespace, type NamespaceLoaders } from '../../i18n/lazy-namespace.ts';

export interface ServiceTab {
  /** Its name: the link's test id is `service-tab-<id>`. */
  id: string;
  /** The path segment under the service; '' is the overview, the page's index. */
  path: string;
  /** Its label in the tab bar and the page title (the `workspace` namespace: the bar shows it first). */
  label: ParseKeys<'workspace'>;
  /** The feature it belongs to; none: always there. */
  feature?: Feature;
  component: () => Promise<ComponentType>;
  /** Its texts: a namespace loaded before it renders (a tab may share one, as Activity does). */
  messages?: { namespace: string; loaders: NamespaceLoaders };
}

/** The `ftp` and `ftp-advanced` tabs share their texts. */
const FTP_MESSAGES: ServiceTab['messages'] = {
  namespace: 'ftpTab',
  loaders: {
    en: async () => (await import('./ftp/messages/ftp.en.ts')).ftpTabEn,
    lt: async () => (await import('./ftp/messages/ftp.lt.ts')).ftpTabLt,
  },
};

export const SERVICE_TABS: readonly ServiceTab[] = [
  {
    id: 'overview',
    path: '',
    label: 'serviceDetail.tabOverview',
    component: async () => (await import('./overview/ServiceOverviewTab.tsx')).ServiceOverviewTab,
    messages: {
      namespace: 'overviewTab',
      loaders: {
        en: async () => (await import('./overview/messages/overview.en.ts')).overviewTabEn,
        lt: async () => (await import('./overview/messages/overview.lt.ts')).overviewTabLt,
      },
    },
  },
  {
    id: 'users',
    path: 'users',
    label: 'serviceDetail.tabUsers',
    feature: 'users',
    component: async () => (await import('./users/ServiceUsersTab.tsx')).ServiceUsersTab,
    messages: {
      namespace: 'usersTab',
      loaders: {
        en: async () => (await import('./users/messages/users.en.ts')).usersTabEn,
        lt: async () => (await import('./users/messages/users.lt.ts')).usersTabLt,
      },
    },
  },
  {
    id: 'vpn',
    path: 'vpn',
    label: 'serviceDetail.tabVpn',
    feature: 'vpn',
    component: async () => (await import('./vpn/ServiceVpnTab.tsx')).ServiceVpnTab,
    messages: {
      namespace: 'vpnTab',
      loaders: {
        en: async () => (await import('./vpn/messages/vpn.en.ts')).vpnTabEn,
        lt: async () => (await import('./vpn/messages/vpn.lt.ts')).vpnTabLt,
      },
    },
  },
  {
    id: 'samba',
    path: 'samba',
    label: 'serviceDetail.tabSamba',
    feature: 'samba',
    component: async () => (await import('./samba/ServiceSambaTab.tsx')).ServiceSambaTab,
    messages: {
      namespace: 'sambaTab',
      loaders: {
        en: async () => (await import('./samba/messages/samba.en.ts')).sambaTabEn,
        lt: async () => (await import('./samba/messages/samba.lt.ts')).sambaTabLt,
      },
    },
  },
  {
    id: 'nfs',
    path: 'nfs',
    label: 'serviceDetail.tabNfs',
    feature: 'nfs',
    component: async () => (await import('./nfs/ServiceNfsTab.tsx')).ServiceNfsTab,
    messages: {
      namespace: 'nfsTab',
      loaders: {
        en: async () => (await import('./nfs/messages/nfs.en.ts')).nfsTabEn,
        lt: async () => (await import('./nfs/messages/nfs.lt.ts')).nfsTabLt,
      },
    },
  },
  {
    id: 'ftp',
    path: 'ftp',
    label: 'serviceDetail.tabFtp',
    feature: 'ftp',
    component: async () => (await import('./ftp/ServiceFtpTab.tsx')).ServiceFtpTab,
    messages: FTP_MESSAGES,
  },
  {
    id: 'ftp-advanced',
    path: 'ftp-advanced',
    label: 'serviceDetail.tabFtpAdvanced',
    feature: 'ftp',
    component: async () => (await import('./ftp/ServiceFtpAdvancedTab.tsx')).ServiceFtpAdvancedTab,
    messages: FTP_MESSAGES,
  },
  {
    id: 'backups',
    path: 'backups',
    label: 'serviceDetail.tabBackups',
    feature: 'backups',
    component: async () => (await import('./backups/ServiceBackupsTab.tsx')).ServiceBackupsTab,
    messages: {
      namespace: 'backupsTab',
      loaders: {
        en: async () => (await import('./backups/messages/backups.en.ts')).backupsTabEn,
        lt: async () => (await import('./backups/messages/backups.lt.ts')).backupsTabLt,
      },
    },
  },
  {
    id: 'subusers',
    path: 'subusers',
    label: 'serviceDetail.tabSubusers',
    feature: 'subusers',
    component: async () => (await import('./subusers/ServiceSubusersTab.tsx')).ServiceSubusersTab,
    messages: {
      namespace: 'subusersTab',
      loaders: {
        en: async () => (await import('./subusers/messages/subusers.en.ts')).subusersTabEn,
        lt: async () => (await import('./subusers/messages/subusers.lt.ts')).subusersTabLt,
      },
    },
  },
  {
    id: 'share-links',
    path: 'share-links',
    label: 'serviceDetail.tabShareLinks',
    feature: 'shareLinks',
    component: async () => (await import('./share-links/ServiceShareLinksTab.tsx')).ServiceShareLinksTab,
    messages: {
      namespace: 'shareLinksTab',
      loaders: {
        en: async () => (await import('./share-links/messages/share-links.en.ts')).shareLinksTabEn,
        lt: async () => (await import('./share-links/messages/share-links.lt.ts')).shareLinksTabLt,
      },
    },
  },
  {
    id: 'ldap',
    path: 'ldap',
    label: 'serviceDetail.tabLdap',
    feature: 'ldap',
    component: async () => (await import('./ldap/ServiceLdapTab.tsx')).ServiceLdapTab,
    messages: {
      namespace: 'ldapTab',
      loaders: {
        en: async () => (await import('./ldap/messages/ldap.en.ts')).ldapTabEn,
        lt: async () => (await import('./ldap/messages/ldap.lt.ts')).ldapTabLt,
      },
    },
  },
  {
    id: 'activity',
    path: 'activity',
    label: 'serviceDetail.tabActivity',
    feature: 'activity',
    // Its texts are the account activity page's namespace, which its module adds itself.
    component: async () => (await import('../activity/ServiceActivityTab.tsx')).ServiceActivityTab,
  },
  {
    id: 'monitoring',
    path: 'monitoring',
    label: 'serviceDetail.tabMonitoring',
    feature: 'monitoring',
    component: async () => (await import('./monitoring/ServiceMonitoringTab.tsx')).ServiceMonitoringTab,
    messages: {
      namespace: 'monitoringTab',
      loaders: {
        en: async () => (await import('./monitoring/messages/monitoring.en.ts')).monitoringTabEn,
        lt: async () => (await import('./monitoring/messages/monitoring.lt.ts')).monitoringTabLt,
      },
    },
  },
  {
    id: 'settings',
    path: 'settings',
    label: 'serviceDetail.tabSettings',
    component: async () => (await import('./settings/ServiceSettingsTab.tsx')).ServiceSettingsTab,
    messages: {
      namespace: 'settingsTab',
      loaders: {
        en: async () => (await import('./settings/messages/settings.en.ts')).settingsTabEn,
        lt: async () => (await import('./settings/messages/settings.lt.ts')).settingsTabLt,
      },
    },
  },
];

/** The tabs whose feature has shipped, in their order. */
export function shippedTabs(
  tabs: readonly ServiceTab[] = SERVICE_TABS,
  shipped: readonly Feature[] = SHIPPED_FEATURES,
): ServiceTab[] {
  return tabs.filter((tab) => tab.feature === undefined || shipped.includes(tab.feature));
}

/** A tab's code and texts, together: the route renders once both are here. */
async function loadTab(tab: ServiceTab): Promise<ComponentType> {
  const [Component] = await Promise.all([
    tab.component(),
    tab.messages && loadNamespace(tab.messages.namespace, tab.messages.loaders),
  ]);
  return Component;
}

/** The service page's child routes, one per shipped tab; any other path is not found. */
export function serviceTabRoutes(tabs: readonly ServiceTab[] = shippedTabs()): RouteObject[] {
  return tabs.map((tab) => {
    const Component = lazyRoute(() => loadTab(tab));
    return tab.path === '' ? { index: true, Component } : { path: tab.path, Component };
  });
}
