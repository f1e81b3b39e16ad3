// The nfs tab of a service's page, for the tab list (service-tabs.ts): its code and texts by import().
import { defineServiceTab } from '../define-service-tab.ts';

export const nfsTab = defineServiceTab({
  id: 'nfs',
  path: 'nfs',
  order: 50,
  label: { en: 'NFS', lt: 'NFS' },
  feature: 'nfs',
  component: async () => (await import('./ServiceNfsTab.tsx')).ServiceNfsTab,
  messages: {
    namespace: 'nfsTab',
    en: () => import('./messages/nfs.en.ts'),
    lt: () => import('./messages/nfs.lt.ts'),
  },
});
