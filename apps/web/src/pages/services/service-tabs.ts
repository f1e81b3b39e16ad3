// The tabs of a service's page (spec §2 "Service detail"), in one list that both the router
// (app/router.tsx: a child route per tab) and the page's tab bar (ServiceDetailPage) read. Each
// feature declares its own tab in its folder (`<feature>/tab.ts`, define-service-tab.ts): its path
// under /dashboard/services/{id}, its label, its code, its texts (an i18n namespace of its own,
// loaded with its code) and the feature it belongs to: a tab of a feature not yet in
// SHIPPED_FEATURES is neither routed nor listed. Adding a tab: its folder, and its line in
// registered-tabs.ts; its place, its texts' types for `t()` and its label follow from its tab.ts
// (ServiceTabResources, tab-labels.ts).
import { SHIPPED_FEATURES, type Feature } from '@debesis/contract';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { lazyRoute } from '../../app/route-tree.tsx';
import { loadNamespace } from '../../i18n/lazy-namespace.ts';
import type { ServiceTab, TabResources } from './define-service-tab.ts';
import * as registered from './registered-tabs.ts';
import { addTabLabels } from './tab-labels.ts';

type RegisteredTab = (typeof registered)[keyof typeof registered];

/** Every tab, in the tab bar's order. */
export const SERVICE_TABS: readonly RegisteredTab[] = (
  Object.values(registered) satisfies readonly ServiceTab[]
).sort((a, b) => a.order - b.order);

/** The tabs' namespaces and their texts: what `t()` may ask of them (i18n.ts). */
export type ServiceTabResources = TabResources<readonly RegisteredTab[]>;

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
