// The settings tab of a service's page, for the tab list (service-tabs.ts): its code and texts by import().
import { defineServiceTab } from '../define-service-tab.ts';

export const settingsTab = defineServiceTab({
  id: 'settings',
  path: 'settings',
  order: 1000,
  label: { en: 'Settings', lt: 'Nustatymai' },
  component: async () => (await import('./ServiceSettingsTab.tsx')).ServiceSettingsTab,
  messages: {
    namespace: 'settingsTab',
    en: () => import('./messages/settings.en.ts'),
    lt: () => import('./messages/settings.lt.ts'),
  },
});
