// The samba tab of a service's page, for the tab list (service-tabs.ts): its code and texts by import().
import { defineServiceTab } from '../define-service-tab.ts';

export const sambaTab = defineServiceTab({
  id: 'samba',
  path: 'samba',
  order: 40,
  label: { en: 'Samba', lt: 'Samba' },
  feature: 'samba',
  component: async () => (await import('./ServiceSambaTab.tsx')).ServiceSambaTab,
  messages: {
    namespace: 'sambaTab',
    en: () => import('./messages/samba.en.ts'),
    lt: () => import('./messages/samba.lt.ts'),
  },
});
