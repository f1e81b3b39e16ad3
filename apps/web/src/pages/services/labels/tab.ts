// The labels tab of a service's page, for the tab list (registered-tabs.ts): its code and texts by import().
import { defineServiceTab } from '../define-service-tab.ts';

export const labelsTab = defineServiceTab({
  id: 'labels',
  path: 'labels',
  order: 130,
  label: { en: 'Labels', lt: 'Etiketės' },
  feature: 'labels',
  component: async () => (await import('./ServiceLabelsTab.tsx')).ServiceLabelsTab,
  messages: {
    namespace: 'labelsTab',
    en: () => import('./messages/labels.en.ts'),
    lt: () => import('./messages/labels.lt.ts'),
  },
});
