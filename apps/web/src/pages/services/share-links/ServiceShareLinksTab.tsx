// The service's share links (spec §3 "Public share link", §7 "Share links"): the list with each
// link's state, expiry and downloads; per link its URL to copy, its QR code, its access log,
// Revoke and Delete (each after a question); and the new-link dialog, after which the new URL is
// shown with its QR code. The list is asked again every 30 s: visitors change its downloads.
import type { ShareLink } from '@debesis/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog/Dialog.tsx';
import { FormAlert } from '../../../components/form/fields.tsx';
import { shareLinksApi, useShareLinks } from '../../../workspace/share-links-api.ts';
import { formatDateTime } from '../../activity/relative-time.ts';
import { CopyValue } from '../kit/CopyValue.tsx';
import { DataTable } from '../kit/DataTable.tsx';
import { ReportCard } from '../kit/ReportCard.tsx';
import { ConfirmAction, DeleteDialog, RowAction } from '../resource-parts.tsx';
import { useServiceTab } from '../use-service-tab.ts';
import { ShareLinkCreateDialog } from './ShareLinkCreateDialog.tsx';
import { ShareLinkLogsDialog } from './ShareLinkLogsDialog.tsx';
import { ShareLinkQr } from './ShareLinkQr.tsx';
import './share-links.css';

type Asked = { kind: 'revoke' | 'delete' | 'logs' | 'qr'; link: ShareLink };

const linkName = (link: ShareLink) => link.label ?? link.target;

function StateBadge({ link }: { link: ShareLink }) {
  const { t } = useTranslation('shareLinksTab');
  const tone = link.state === 'active' ? (link.limit_reached ? 'badge--warning' : 'badge--success') : '';
  return (
    <span className={`badge ${tone}`} data-testid={`share-link-state-${link.id}`} data-state={link.state}>
      {link.state === 'active' && link.limit_reached ? t('state.limitReached') : t(`state.${link.state}`)}
    </span>
  );
}

function LinkActions({ link, onAsk }: { link: ShareLink; onAsk: (kind: Asked['kind']) => void }) {
  const { t } = useTranslation(['shareLinksTab', 'workspace']);
  const [copied, setCopied] = useState(false);
  const name = linkName(link);
  return (
    <div className="share-link__actions">
      {link.url ? (
        <>
          <RowAction
            label={copied ? t('copied') : t('copy')}
            target={name}
            onClick={() => {
              void navigator.clipboard?.writeText(link.url ?? '').then(() => setCopied(true));
            }}
            testId={`share-link-copy-${link.id}`}
          />
          <RowAction
            label={t('qr')}
            target={name}
            onClick={() => onAsk('qr')}
            testId={`share-link-qr-${link.id}`}
          />
        </>
      ) : (
        <span className="text-muted" title={t('noUrl')}>
          {t('noUrl')}
        </span>
      )}
      <RowAction
        label={t('logs')}
        target={name}
        onClick={() => onAsk('logs')}
        testId={`share-link-logs-${link.id}`}
      />
      {link.state === 'active' && (
        <RowAction
          label={t('revoke')}
          target={name}
          onClick={() => onAsk('revoke')}
          testId={`share-link-revoke-${link.id}`}
        />
      )}
      <RowAction
        label={t('workspace:resource.delete')}
        target={name}
        danger
        onClick={() => onAsk('delete')}
        testId={`share-link-delete-${link.id}`}
      />
    </div>
  );
}

export function ServiceShareLinksTab() {
  const { service } = useServiceTab('share-links');
  const serviceId = service.id;
  const { t, i18n } = useTranslation(['shareLinksTab', 'workspace']);
  const links = useShareLinks(serviceId);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ShareLink | null>(null);
  const [asked, setAsked] = useState<Asked | null>(null);
  const close = () => setAsked(null);
  return (
    <>
      <ReportCard
        id="share-links"
        title={t('title')}
        lead={t('lead')}
        add={{
          label: t('add'),
          onClick: () => {
            setCreated(null);
            setCreating(true);
          },
          testId: 'share-link-create',
        }}
        notice={
          created?.url && (
            <section className="share-link__created" data-testid="share-link-created">
              <FormAlert tone="success">{t('form.created')}</FormAlert>
              <p className="text-muted">{t('form.createdHint')}</p>
              <CopyValue value={created.url} what={t('copy')} testId="share-link-created-url" />
              <ShareLinkQr url={created.url} testId="share-link-created-qr" />
              <div className="button-row">
                <button type="button" className="btn btn--secondary" onClick={() => setCreated(null)}>
                  {t('close')}
                </button>
              </div>
            </section>
          )
        }
        query={links}
        failure={t('loadFailed')}
      >
        {({ links: list }) => (
          <DataTable
            label={t('title')}
            testId="share-links-table"
            empty={{ text: t('empty'), testId: 'share-links-empty' }}
            rows={list}
            rowKey={(link) => link.id}
            rowData={(link) => ({ 'data-testid': `share-link-row-${link.id}` })}
            columns={[
              {
                title: t('columns.link'),
                cell: (link) => (
                  <>
                    {linkName(link)}
                    {link.has_password && (
                      <span className="share-link__lock" title={t('password')} aria-label={t('password')}>
                        {' '}
                        🔒
                      </span>
                    )}
                  </>
                ),
              },
              {
                title: t('columns.type'),
                cell: (link) => (
                  <>
                    {t(`type.${link.type}`)} ·{' '}
                    <span className="text-muted">{t(`item.${link.item_type}`)}</span>
                  </>
                ),
              },
              { title: t('columns.state'), cell: (link) => <StateBadge link={link} /> },
              {
                title: t('columns.expires'),
                cell: (link) =>
                  link.expires_at ? formatDateTime(new Date(link.expires_at), i18n.language) : t('never'),
              },
              {
                title: t('columns.downloads'),
                numeric: true,
                data: (link) => ({ 'data-testid': `share-link-downloads-${link.id}` }),
                cell: (link) =>
                  t('downloads', { count: link.downloads, limit: link.download_limit ?? t('unlimited') }),
              },
              {
                title: t('columns.created'),
                cell: (link) => formatDateTime(new Date(link.created_at), i18n.language),
              },
              {
                title: t('columns.actions'),
                hideTitle: true,
                cell: (link) => <LinkActions link={link} onAsk={(kind) => setAsked({ kind, link })} />,
              },
            ]}
          />
        )}
      </ReportCard>
      {creating && (
        <ShareLinkCreateDialog
          serviceId={serviceId}
          onClose={() => setCreating(false)}
          onCreated={(link) => {
            setCreating(false);
            setCreated(link);
          }}
        />
      )}
      {asked?.kind === 'revoke' && (
        <ConfirmAction
          title={t('revokeTitle', { name: linkName(asked.link) })}
          body={t('revokeBody')}
          confirmLabel={t('revoke')}
          busyLabel={t('revoking')}
          failure={t('revokeFailed')}
          run={() => shareLinksApi.revoke(serviceId, asked.link.id)}
          onClose={close}
          testId="share-link-revoke"
        />
      )}
      {asked?.kind === 'delete' && (
        <DeleteDialog
          title={t('deleteTitle', { name: linkName(asked.link) })}
          body={t('deleteBody')}
          failure={t('deleteFailed')}
          remove={() => shareLinksApi.remove(serviceId, asked.link.id)}
          onClose={close}
          testId="share-link-delete"
        />
      )}
      {asked?.kind === 'logs' && (
        <ShareLinkLogsDialog
          serviceId={serviceId}
          link={asked.link}
          name={linkName(asked.link)}
          onClose={close}
        />
      )}
      {asked?.kind === 'qr' && asked.link.url && (
        <Dialog title={t('qrTitle')} onClose={close} testId="share-link-qr">
          <ShareLinkQr url={asked.link.url} testId="share-link-qr-code" />
          <p>
            <code>{asked.link.url}</code>
          </p>
        </Dialog>
      )}
    </>
  );
}
