// The share-links tab of a service's page, for the tab list (service-tabs.ts): its code and texts by import().
import { defineServiceTab } from '../define-service-tab.ts';

export const shareLinksTab = defineServiceTab({
  id: 'share-links',
  path: 'share-links',
  order: 90,
  label: { en: 'Share links', lt: 'Bendrinimo nuorodos' },
  feature: 'shareLinks',
  component: async () => (await import('./ServiceShareLinksTab.tsx')).ServiceShareLinksTab,
  messages: {
    namespace: 'shareLinksTab',
    en: () => import('./messages/share-links.en.ts'),
    lt: () => import('./messages/share-links.lt.ts'),
  },
});
