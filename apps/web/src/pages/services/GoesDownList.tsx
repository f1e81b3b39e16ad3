// What stops serving when a workspace stops, restarts or ends, for the dialogs that ask first
// (stop and restart on the overview, terminate and cancel in settings): every daemon, not only
// Samba, with the overview's live counts where it has them (shares, VPN sessions connected now,
// NFS exports). FTP/SFTP and LDAP have no count in the overview: they are named all the same.
import type { ServiceOverviewItem } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import '../../i18n/workspace-messages.ts';

export function GoesDownList({ service, testId }: { service: ServiceOverviewItem; testId: string }) {
  const { t } = useTranslation('workspace');
  const address = service.ip_address ?? '';
  const lines: Array<{ key: string; text: string }> = [
    {
      key: 'samba',
      text:
        service.shares === undefined
          ? t('goesDown.sambaAny', { address })
          : t('goesDown.samba', { count: service.shares, address }),
    },
    {
      key: 'vpn',
      text:
        service.vpn_online === undefined
          ? t('goesDown.vpnAny')
          : t('goesDown.vpn', { count: service.vpn_online }),
    },
    {
      key: 'nfs',
      text:
        service.nfs_exports === undefined
          ? t('goesDown.nfsAny')
          : t('goesDown.nfs', { count: service.nfs_exports }),
    },
    { key: 'ftp', text: t('goesDown.ftp') },
    { key: 'ldap', text: t('goesDown.ldap') },
  ];
  return (
    <>
      <p>{t('goesDown.intro')}</p>
      <ul className="plain-list" data-testid={testId}>
        {lines.map((line) => (
          <li key={line.key} data-testid={`${testId}-${line.key}`}>
            {line.text}
          </li>
        ))}
      </ul>
    </>
  );
}
