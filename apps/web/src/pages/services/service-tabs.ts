// The tabs of a service's page (spec §2 "Service detail"), in one list that both the router
// (app/router.tsx: a child route per tab) and the page's tab bar (ServiceDetailPage) read. Each
// feature declares its own tab in its folder (`<feature>/tab.ts`, define-service-tab.ts): its path
// under /dashboard/services/{id}, its label, its code, its texts (an i18n namespace of its own,
// loaded with its code) and the feature it belongs to: a tab of a feature not yet in
// SHIPPED_FEATURES is neither routed nor listed. Adding a tab: its folder, and its line here; its
// texts' types for `t()` and its label follow from the list (ServiceTabResources, tab-labels.ts).
import { SHIPPED_FEATURES, type Feature } from '@debesis/contract';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { lazyRoute } from '../../app/route-tree.tsx';
import { loadNamespace } from '../../i18n/lazy-namespace.ts';
import { activityTab } from '../activity/tab.ts';
import { backupsTab } from './backups/tab.ts';
import type { ServiceTab, TabResources } from './define-service-tab.ts';
import { ftpAdvancedTab, ftpTab } from './ftp/tab.ts';
import { ldapTab } from './ldap/tab.ts';
import { monitoringTab } from './monitoring/tab.ts';
import { nfsTab } from './nfs/tab.ts';
import { overviewTab } from './overview/tab.ts';
import { sambaTab } from './samba/tab.ts';
import { settingsTab } from './settings/tab.ts';
import { shareLinksTab } from './share-links/tab.ts';
import { subusersTab } from './subusers/tab.ts';
import { usersTab } from './users/tab.ts';
import { addTabLabels } from './tab-labels.ts';
import { vpnTab } from './vpn/tab.ts';

export const SERVICE_TABS = [
  overviewTab,
  usersTab,
  vpnTab,
  sambaTab,
  nfsTab,
  ftpTab,
  ftpAdvancedTab,
  backupsTab,
  subusersTab,
  shareLinksTab,
  ldapTab,
  activityTab,
  monitoringTab,
  settingsTab,
] as const satisfies readonly ServiceTab[];

/** The tabs' namespaces and their texts: what `t()` may ask of them (i18n.ts). */
export type ServiceTabResources = TabResources<typeof SERVICE_TABS>;

addTabLabels(SERVICE_TABS);

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
