// A daemon (a node driver: `samba`, `vpn`, `backup-clients`…) as the reader knows it, in the
// page's language, for every place a report names one: the monitoring tab's status and health,
// its alerts, the overview's node card. The ids are the agent's driver names; one this version
// does not know yet is shown as reported rather than hidden.
import { useTranslation } from 'react-i18next';
import '../../i18n/workspace-messages.ts';

const DAEMON_IDS = [
  'samba',
  'vpn',
  'nfs',
  'ftp',
  'sftp',
  'ldap',
  'backup',
  'backup-clients',
  'storage',
  'network',
  'users',
  'workspace-dir',
] as const;
type DaemonId = (typeof DAEMON_IDS)[number];

const isDaemonId = (id: string): id is DaemonId => (DAEMON_IDS as readonly string[]).includes(id);

/** `label(id)`: the daemon's name in words. */
export function useDaemonLabel(): (id: string) => string {
  const { t } = useTranslation('workspace');
  return (id) => (isDaemonId(id) ? t(`daemonName.${id}`) : id);
}
