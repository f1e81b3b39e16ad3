// The users tab of a service's page, for the tab list (service-tabs.ts): its code and texts by import().
import { defineServiceTab } from '../define-service-tab.ts';

export const usersTab = defineServiceTab({
  id: 'users',
  path: 'users',
  order: 20,
  label: { en: 'Users and groups', lt: 'Naudotojai ir grupės' },
  feature: 'users',
  component: async () => (await import('./ServiceUsersTab.tsx')).ServiceUsersTab,
  messages: {
    namespace: 'usersTab',
    en: () => import('./messages/users.en.ts'),
    lt: () => import('./messages/users.lt.ts'),
  },
});
