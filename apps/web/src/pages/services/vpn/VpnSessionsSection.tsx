// Who is connected now (spec §3: real IP, virtual IP, data sent and received, connected since),
// asked again every 2 s while the tab is open, and kill-all: every session of this workspace ends
// at once, after a question that says how many. A backup client's login (Backups tab) is tagged
// so: it is not one of the VPN users listed above.
import type { VpnSessionsResponse } from '@debesis/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/fields.tsx';
import { vpnApi } from '../../../workspace/vpn-api.ts';
import { formatBytes } from '../service-parts.tsx';
import { ConfirmAction } from '../resource-parts.tsx';
import { Since, useNow } from './vpn-parts.tsx';
import { DataTable } from '../kit/DataTable.tsx';
import { LoadStatus, SectionCard } from '../kit/SectionCard.tsx';

export function VpnSessionsSection({
  serviceId,
  sessions,
}: {
  serviceId: string;
  sessions: UseQueryResult<VpnSessionsResponse>;
}) {
  const { t, i18n } = useTranslation(['vpnTab', 'workspace']);
  const now = useNow();
  const [confirming, setConfirming] = useState(false);
  const [ended, setEnded] = useState<number | null>(null);
  const list = sessions.data?.sessions ?? [];
  const bytes = (value: number) => formatBytes(value, i18n.language);
  return (
    <SectionCard
      id="vpn-sessions"
      title={t('vpn.sessionsTitle')}
      counter={sessions.isSuccess ? list.length : undefined}
      lead={t('vpn.sessionsLead')}
      actions={
        <button
          type="button"
          className="btn btn--danger-outline"
          disabled={list.length === 0}
          onClick={() => {
            setEnded(null);
            setConfirming(true);
          }}
          data-testid="vpn-sessions-kill-all"
        >
          {t('vpn.killAll')}
        </button>
      }
    >
      {ended !== null && (
        <FormAlert tone="success" testId="vpn-sessions-killed">
          {t('vpn.killedAll', { count: ended })}
        </FormAlert>
      )}
      <LoadStatus id="vpn-sessions" load={sessions} failure={t('vpn.sessionsLoadFailed')} />
      {/* The sessions last asked stay while a later ask fails. */}
      {(sessions.isSuccess || list.length > 0) && (
        <DataTable
          label={t('vpn.sessionsTitle')}
          className="vpn-sessions-table"
          testId="vpn-sessions-table"
          empty={{ text: t('vpn.sessionsEmpty'), testId: 'vpn-sessions-empty' }}
          rows={list}
          rowKey={(session) => `${session.user_id}-${session.real_address}`}
          rowData={(session) => ({ 'data-testid': `vpn-session-${session.username}` })}
          columns={[
            {
              title: t('vpn.username'),
              cell: (session) => (
                <>
                  {session.username}
                  {session.backup_client && (
                    <span
                      className="badge badge--info"
                      data-testid={`vpn-session-${session.username}-backup-client`}
                    >
                      {t('vpn.backupClientTag')}
                    </span>
                  )}
                </>
              ),
            },
            { title: t('vpn.realAddress'), cell: (session) => <code>{session.real_address}</code> },
            { title: t('vpn.virtualAddress'), cell: (session) => <code>{session.virtual_address}</code> },
            { title: t('vpn.sent'), numeric: true, cell: (session) => bytes(session.bytes_sent) },
            { title: t('vpn.received'), numeric: true, cell: (session) => bytes(session.bytes_received) },
            {
              title: t('vpn.connectedSince'),
              cell: (session) => <Since at={session.connected_since} now={now} />,
            },
          ]}
        />
      )}
      {confirming && (
        <ConfirmAction
          title={t('vpn.killAllTitle', { count: list.length })}
          body={t('vpn.killAllBody')}
          confirmLabel={t('vpn.killAllConfirm', { count: list.length })}
          busyLabel={t('vpn.killing')}
          failure={t('vpn.killAllFailed')}
          run={() => vpnApi.killAll(serviceId)}
          onDone={(result) => setEnded(result.disconnected)}
          onClose={() => setConfirming(false)}
          testId="vpn-kill-all-dialog"
        />
      )}
    </SectionCard>
  );
}
