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
import '../kit/data-table.css';

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
    <section
      className="card resource-section"
      aria-labelledby="vpn-sessions-title"
      data-testid="vpn-sessions"
    >
      <div className="resource-section__head">
        <div>
          <h2 id="vpn-sessions-title" className="resource-section__title">
            {t('vpn.sessionsTitle')}
            {sessions.isSuccess && (
              <span className="resource-section__counter" data-testid="vpn-sessions-counter">
                {list.length}
              </span>
            )}
          </h2>
          <p className="text-muted resource-section__lead">{t('vpn.sessionsLead')}</p>
        </div>
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
      </div>
      {ended !== null && (
        <FormAlert tone="success" testId="vpn-sessions-killed">
          {t('vpn.killedAll', { count: ended })}
        </FormAlert>
      )}
      {sessions.isPending && (
        <p className="text-muted" role="status">
          {t('workspace:resource.loading')}
        </p>
      )}
      {sessions.isError && (
        <FormAlert tone="error" testId="vpn-sessions-load-error">
          {t('vpn.sessionsLoadFailed')}{' '}
          <button type="button" className="btn btn--ghost" onClick={() => void sessions.refetch()}>
            {t('workspace:resource.retry')}
          </button>
        </FormAlert>
      )}
      {sessions.isSuccess && list.length === 0 && (
        <p className="text-muted resource-section__empty" data-testid="vpn-sessions-empty">
          {t('vpn.sessionsEmpty')}
        </p>
      )}
      {list.length > 0 && (
        <div className="data-table__scroll">
          <table className="data-table vpn-sessions-table" data-testid="vpn-sessions-table">
            <thead>
              <tr>
                <th scope="col">{t('vpn.username')}</th>
                <th scope="col">{t('vpn.realAddress')}</th>
                <th scope="col">{t('vpn.virtualAddress')}</th>
                <th scope="col" className="numeric">
                  {t('vpn.sent')}
                </th>
                <th scope="col" className="numeric">
                  {t('vpn.received')}
                </th>
                <th scope="col">{t('vpn.connectedSince')}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((session) => (
                <tr
                  key={`${session.user_id}-${session.real_address}`}
                  data-testid={`vpn-session-${session.username}`}
                >
                  <th scope="row">
                    {session.username}
                    {session.backup_client && (
                      <span
                        className="badge badge--info"
                        data-testid={`vpn-session-${session.username}-backup-client`}
                      >
                        {t('vpn.backupClientTag')}
                      </span>
                    )}
                  </th>
                  <td>
                    <code>{session.real_address}</code>
                  </td>
                  <td>
                    <code>{session.virtual_address}</code>
                  </td>
                  <td className="numeric">{bytes(session.bytes_sent)}</td>
                  <td className="numeric">{bytes(session.bytes_received)}</td>
                  <td>
                    <Since at={session.connected_since} now={now} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
    </section>
  );
}
