// The backups tab of a service's page, for the tab list (service-tabs.ts): its code and texts by import().
import { defineServiceTab } from '../define-service-tab.ts';

export const backupsTab = defineServiceTab({
  id: 'backups',
  path: 'backups',
  order: 70,
  label: { en: 'Backups', lt: 'Atsarginės kopijos' },
  feature: 'backups',
  component: async () => (await import('./ServiceBackupsTab.tsx')).ServiceBackupsTab,
  messages: {
    namespace: 'backupsTab',
    en: () => import('./messages/backups.en.ts'),
    lt: () => import('./messages/backups.lt.ts'),
  },
});
