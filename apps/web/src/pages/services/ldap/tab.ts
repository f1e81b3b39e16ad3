// The ldap tab of a service's page, for the tab list (service-tabs.ts): its code and texts by import().
import { defineServiceTab } from '../define-service-tab.ts';

export const ldapTab = defineServiceTab({
  id: 'ldap',
  path: 'ldap',
  order: 100,
  label: { en: 'LDAP', lt: 'LDAP' },
  feature: 'ldap',
  component: async () => (await import('./ServiceLdapTab.tsx')).ServiceLdapTab,
  messages: {
    namespace: 'ldapTab',
    en: () => import('./messages/ldap.en.ts'),
    lt: () => import('./messages/ldap.lt.ts'),
  },
});
