import { SHIPPED_FEATURES } from '@debesis/contract';
import { describe, expect, it } from 'vitest';
import { preloadMatches } from '../../app/route-tree.tsx';
import { i18n } from '../../i18n/i18n.ts';
import { SERVICE_TABS, serviceTabRoutes, shippedTabs } from './service-tabs.ts';
import { TAB_LABELS_NAMESPACE } from './tab-labels.ts';

describe('the service tabs', () => {
  it('route and list only the tabs whose feature has shipped, in their order', () => {
    const tabs = shippedTabs(SERVICE_TABS, ['users']);
    expect(tabs.map((tab) => tab.id)).toEqual(['overview', 'users', 'settings']);
    const routes = serviceTabRoutes(tabs);
    expect(routes.map((route) => (route.index ? '(index)' : route.path))).toEqual([
      '(index)',
      'users',
      'settings',
    ]);
  });

  it('route the VPN tab only once the VPN has shipped (issue 15: it has)', () => {
    const paths = (features: Parameters<typeof shippedTabs>[1]) =>
      shippedTabs(SERVICE_TABS, features).map((tab) => tab.path);
    expect(paths(SHIPPED_FEATURES.filter((feature) => feature !== 'vpn'))).not.toContain('vpn');
    // The tabs the issues placed, in their order (a new tab's place is its own tab.ts's `order`).
    const placed = [
      '',
      'users',
      'vpn',
      'samba',
      'nfs',
      'ftp',
      'ftp-advanced',
      'backups',
      'subusers',
      'share-links',
      'ldap',
      'activity',
      'monitoring',
      'settings',
    ];
    const shipped = paths(SHIPPED_FEATURES);
    expect(shipped.filter((path) => placed.includes(path))).toEqual(placed);
    expect(shipped.at(0)).toBe('');
    expect(shipped.at(-1)).toBe('settings');
  });

  it('route both FTP tabs once FTP has shipped, with one namespace of texts', async () => {
    const ftp = shippedTabs(SERVICE_TABS, ['ftp']).filter((tab) => tab.feature === 'ftp');
    expect(ftp.map((tab) => tab.path)).toEqual(['ftp', 'ftp-advanced']);
    expect(shippedTabs(SERVICE_TABS, []).some((tab) => tab.feature === 'ftp')).toBe(false);
    const { i18n } = await import('../../i18n/i18n.ts');
    await preloadMatches(serviceTabRoutes(ftp), '/ftp-advanced');
    expect(i18n.getFixedT('lt', 'ftpTab')('advanced.title')).toBe(
      (await import('./ftp/messages/ftp.lt.ts')).ftpTabLt.advanced.title,
    );
  });

  it('route the backups tab only once backups have shipped, after the FTP tabs, with its texts', async () => {
    const paths = (features: Parameters<typeof shippedTabs>[1]) =>
      shippedTabs(SERVICE_TABS, features).map((tab) => tab.path);
    expect(paths(SHIPPED_FEATURES.filter((feature) => feature !== 'backups'))).not.toContain('backups');
    expect(paths(['ftp', 'backups', 'ldap'])).toEqual([
      '',
      'ftp',
      'ftp-advanced',
      'backups',
      'ldap',
      'settings',
    ]);
    const { i18n } = await import('../../i18n/i18n.ts');
    await preloadMatches(serviceTabRoutes(shippedTabs(SERVICE_TABS, ['backups'])), '/backups');
    expect(i18n.getFixedT('lt', 'backupsTab')('restore.original')).toBe(
      (await import('./backups/messages/backups.lt.ts')).backupsTabLt.restore.original,
    );
  });

  it('load a tab’s texts with its code', async () => {
    const routes = serviceTabRoutes(shippedTabs(SERVICE_TABS, ['samba']));
    const { i18n } = await import('../../i18n/i18n.ts');
    await preloadMatches(routes, '/samba');
    expect(i18n.getFixedT('lt', 'sambaTab')('samba.serverTitle')).toBe(
      (await import('./samba/messages/samba.lt.ts')).sambaTabLt.samba.serverTitle,
    );
  });

  it('load each tab’s texts, in both languages, from its folder’s text modules', async () => {
    const withTexts = SERVICE_TABS.filter((tab) => tab.messages);
    expect(withTexts.map((tab) => tab.id)).not.toContain('activity');
    for (const { messages } of withTexts) {
      const [en, lt] = await Promise.all([messages?.loaders.en(), messages?.loaders.lt()]);
      expect(Object.keys(en ?? {})).not.toHaveLength(0);
      expect(Object.keys(lt ?? {})).toEqual(expect.arrayContaining(Object.keys(en ?? {})));
    }
  });

  it('name each tab, with an id of its own, in both languages through i18n', () => {
    const ids = SERVICE_TABS.map((tab) => tab.id);
    expect(new Set(ids).size).toBe(ids.length);
    const places = SERVICE_TABS.map((tab) => tab.order);
    expect(new Set(places).size, 'two tabs in one place').toBe(places.length);
    for (const tab of SERVICE_TABS) {
      for (const lng of ['en', 'lt'] as const) {
        expect(tab.label[lng].trim()).not.toBe('');
        expect(i18n.t(tab.id, { ns: TAB_LABELS_NAMESPACE, lng })).toBe(tab.label[lng]);
      }
    }
  });
});
