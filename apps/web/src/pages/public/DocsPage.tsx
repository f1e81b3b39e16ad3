// /docs: how to connect to a workspace (SMB from Windows, macOS and Linux; NFS; FTP/SFTP;
// OpenVPN) and how backups work (provider's daily backups kept 7 days, the customer's own
// schedules and their presets, spec service-management §9). Commands are shown as code, with
// the same placeholders in every language. A section appears once its feature has shipped
// (SHIPPED_FEATURES); until then its text waits here.
import type { Feature } from '@debesis/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isShipped } from '../../lib/features.ts';
import { PublicPageHeader } from './parts.tsx';

type Section = 'smb' | 'nfs' | 'ftp' | 'vpn' | 'backups';
const SECTIONS: { id: Section; needs: Feature }[] = [
  { id: 'smb', needs: 'samba' },
  { id: 'nfs', needs: 'nfs' },
  { id: 'ftp', needs: 'ftp' },
  { id: 'vpn', needs: 'vpn' },
  { id: 'backups', needs: 'backups' },
];

/** The commands of each section. Program names and options are the same in every language. */
const COMMANDS = {
  smbWindows: String.raw`\\ADDRESS\SHARE`,
  smbMac: 'smb://ADDRESS/SHARE',
  smbLinux: [
    'sudo apt install cifs-utils smbclient',
    'sudo mkdir -p /mnt/SHARE',
    'sudo mount -t cifs //ADDRESS/SHARE /mnt/SHARE -o username=USER,vers=3.1.1,uid=$(id -u),gid=$(id -g)',
    '',
    'smbclient //ADDRESS/SHARE -U USER',
  ].join('\n'),
  nfs: [
    'sudo apt install nfs-common',
    'sudo mkdir -p /mnt/SHARE',
    'sudo mount -t nfs4 ADDRESS:/SHARE /mnt/SHARE',
  ].join('\n'),
  nfsFstab: 'ADDRESS:/SHARE  /mnt/SHARE  nfs4  defaults,_netdev  0  0',
  sftp: ['sftp USER@ADDRESS', '', 'lftp -u USER -e "set ftp:ssl-force true" ADDRESS'].join('\n'),
  vpn: [
    'sudo apt install openvpn',
    'sudo openvpn --config debesis-USER.ovpn',
    '',
    'nmcli connection import type openvpn file debesis-USER.ovpn',
  ].join('\n'),
};

function Code({ children }: { children: string }) {
  return (
    // Focusable: a long command scrolls sideways, and keyboard users scroll it with the arrow keys.
    <pre className="code-block" tabIndex={0}>
      <code>{children}</code>
    </pre>
  );
}

function DocSection({
  id,
  title,
  needs,
  children,
}: {
  id: string;
  title: string;
  needs: Feature;
  children: ReactNode;
}) {
  if (!isShipped(needs)) return null;
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="docs__section">
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}

export function DocsPage() {
  const { t } = useTranslation('public');
  return (
    <div data-testid="docs-page">
      <PublicPageHeader title={t('docs.title')} lead={t('docs.lead')} />
      <div className="section section--tight">
        <div className="container legal">
          <nav className="legal__toc" aria-labelledby="docs-toc">
            <h2 id="docs-toc" className="legal__toc-title">
              {t('common.onThisPage')}
            </h2>
            <ol>
              {SECTIONS.filter(({ needs }) => isShipped(needs)).map(({ id }) => (
                <li key={id}>
                  <a href={`#docs-${id}`}>{t(`docs.${id}.title`)}</a>
                </li>
              ))}
            </ol>
          </nav>
          <div className="prose">
            <p className="alert alert--info">{t('docs.placeholders')}</p>

            <DocSection id="docs-smb" title={t('docs.smb.title')} needs="samba">
              <p>{t('docs.smb.intro')}</p>
              <h3>{t('docs.smb.windowsTitle')}</h3>
              <p>{t('docs.smb.windows')}</p>
              <Code>{COMMANDS.smbWindows}</Code>
              <h3>{t('docs.smb.macTitle')}</h3>
              <p>{t('docs.smb.mac')}</p>
              <Code>{COMMANDS.smbMac}</Code>
              <h3>{t('docs.smb.linuxTitle')}</h3>
              <p>{t('docs.smb.linux')}</p>
              <Code>{COMMANDS.smbLinux}</Code>
            </DocSection>

            <DocSection id="docs-nfs" title={t('docs.nfs.title')} needs="nfs">
              <p>{t('docs.nfs.intro')}</p>
              <Code>{COMMANDS.nfs}</Code>
              <p>{t('docs.nfs.fstab')}</p>
              <Code>{COMMANDS.nfsFstab}</Code>
            </DocSection>

            <DocSection id="docs-ftp" title={t('docs.ftp.title')} needs="ftp">
              <p>{t('docs.ftp.intro')}</p>
              <p>{t('docs.ftp.clients')}</p>
              <Code>{COMMANDS.sftp}</Code>
              <p>{t('docs.ftp.permissions')}</p>
            </DocSection>

            <DocSection id="docs-vpn" title={t('docs.vpn.title')} needs="vpn">
              <p>{t('docs.vpn.intro')}</p>
              <p>{t('docs.vpn.desktop')}</p>
              <p>{t('docs.vpn.linux')}</p>
              <Code>{COMMANDS.vpn}</Code>
              <p>{t('docs.vpn.revoke')}</p>
            </DocSection>

            <DocSection id="docs-backups" title={t('docs.backups.title')} needs="backups">
              <p>{t('docs.backups.automatic')}</p>
              <h3>{t('docs.backups.ownTitle')}</h3>
              <p>{t('docs.backups.own')}</p>
              <ul data-testid="docs-backup-presets">
                <li>{t('docs.backups.presetDaily')}</li>
                <li>{t('docs.backups.presetWeekly')}</li>
                <li>{t('docs.backups.presetMonthly')}</li>
              </ul>
              <p>{t('docs.backups.restore')}</p>
              {isShipped('subusers') && <p>{t('docs.backups.subusers')}</p>}
            </DocSection>
          </div>
        </div>
      </div>
    </div>
  );
}
