// The vpn tab of a service's page, for the tab list (service-tabs.ts): its code and texts by import().
import { defineServiceTab } from '../define-service-tab.ts';

export const vpnTab = defineServiceTab({
  id: 'vpn',
  path: 'vpn',
  order: 30,
  label: { en: 'VPN', lt: 'VPN' },
  feature: 'vpn',
  component: async () => (await import('./ServiceVpnTab.tsx')).ServiceVpnTab,
  messages: {
    namespace: 'vpnTab',
    en: () => import('./messages/vpn.en.ts'),
    lt: () => import('./messages/vpn.lt.ts'),
  },
});
