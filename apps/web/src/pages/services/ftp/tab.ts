// The FTP tabs of a service's page, for the tab list (service-tabs.ts): the servers and users, and
// the advanced settings. They share one namespace of texts; code and texts come by import().
import { defineServiceTab } from '../define-service-tab.ts';

const messages = {
  namespace: 'ftpTab' as const,
  en: () => import('./messages/ftp.en.ts'),
  lt: () => import('./messages/ftp.lt.ts'),
};

export const ftpTab = defineServiceTab({
  id: 'ftp',
  path: 'ftp',
  order: 60,
  label: { en: 'FTP', lt: 'FTP' },
  feature: 'ftp',
  component: async () => (await import('./ServiceFtpTab.tsx')).ServiceFtpTab,
  messages,
});

export const ftpAdvancedTab = defineServiceTab({
  id: 'ftp-advanced',
  path: 'ftp-advanced',
  order: 61,
  label: { en: 'Advanced FTP', lt: 'FTP nustatymai' },
  feature: 'ftp',
  component: async () => (await import('./ServiceFtpAdvancedTab.tsx')).ServiceFtpAdvancedTab,
  messages,
});
