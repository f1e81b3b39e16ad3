// The monitoring tab of a service's page, for the tab list (service-tabs.ts): its code and texts by import().
import { defineServiceTab } from '../define-service-tab.ts';

export const monitoringTab = defineServiceTab({
  id: 'monitoring',
  path: 'monitoring',
  order: 120,
  label: { en: 'Monitoring', lt: 'Stebėsena' },
  feature: 'monitoring',
  component: async () => (await import('./ServiceMonitoringTab.tsx')).ServiceMonitoringTab,
  messages: {
    namespace: 'monitoringTab',
    en: () => import('./messages/monitoring.en.ts'),
    lt: () => import('./messages/monitoring.lt.ts'),
  },
});
