// The subusers tab of a service's page, for the tab list (service-tabs.ts): its code and texts by import().
import { defineServiceTab } from '../define-service-tab.ts';

export const subusersTab = defineServiceTab({
  id: 'subusers',
  path: 'subusers',
  order: 80,
  label: { en: 'Subusers', lt: 'Papildomi naudotojai' },
  feature: 'subusers',
  component: async () => (await import('./ServiceSubusersTab.tsx')).ServiceSubusersTab,
  messages: {
    namespace: 'subusersTab',
    en: () => import('./messages/subusers.en.ts'),
    lt: () => import('./messages/subusers.lt.ts'),
  },
});
