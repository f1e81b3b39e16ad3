// The activity tab of a service's page, for the tab list (services/service-tabs.ts). Its texts are
// the account activity page's namespace, which its module adds itself; its code comes by import().
import { defineServiceTab } from '../services/define-service-tab.ts';

export const activityTab = defineServiceTab({
  id: 'activity',
  path: 'activity',
  order: 110,
  label: { en: 'Activity', lt: 'Veikla' },
  feature: 'activity',
  component: async () => (await import('./ServiceActivityTab.tsx')).ServiceActivityTab,
});
