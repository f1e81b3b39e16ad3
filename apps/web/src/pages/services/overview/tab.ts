// The overview tab of a service's page, for the tab list (service-tabs.ts): its code and texts by import().
import { defineServiceTab } from '../define-service-tab.ts';

export const overviewTab = defineServiceTab({
  id: 'overview',
  path: '',
  order: 10,
  label: { en: 'Overview', lt: 'Apžvalga' },
  component: async () => (await import('./ServiceOverviewTab.tsx')).ServiceOverviewTab,
  messages: {
    namespace: 'overviewTab',
    en: () => import('./messages/overview.en.ts'),
    lt: () => import('./messages/overview.lt.ts'),
  },
});
