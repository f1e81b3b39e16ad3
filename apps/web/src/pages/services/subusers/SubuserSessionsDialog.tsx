// A subuser's live sessions, one per device it signed in on: end one, or all of them. An ended
// session stops at its next request.
import type { Subuser } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog/Dialog.tsx';
import { subusersApi, useSubuserSessions } from '../../../workspace/subusers-api.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { formatDateTime } from '../../activity/relative-time.ts';
import { DataTable } from '../kit/DataTable.tsx';
import { OperationError, RowAction } from '../resource-parts.tsx';

export function SubuserSessionsDialog({
  serviceId,
  subuser,
  onClose,
}: {
  serviceId: string;
  subuser: Subuser;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('subusersTab');
  const sessions = useSubuserSessions(serviceId, subuser.id);
  const end = useWorkspaceMutation((sessionId: string | null) =>
    sessionId
      ? subusersApi.endSession(serviceId, subuser.id, sessionId)
      : subusersApi.endSessions(serviceId, subuser.id),
  );
  const when = (value: string) => formatDateTime(new Date(value), i18n.language);
  const list = sessions.data?.sessions ?? [];
  return (
    <Dialog
      title={t('sessions.title', { name: subuser.username })}
      onClose={onClose}
      testId="subuser-sessions-dialog"
    >
      {sessions.isError && <OperationError error={sessions.error} failure={t('failed.sessions')} />}
      {end.isError && <OperationError error={end.error} failure={t('failed.end')} />}
      {sessions.isSuccess && list.length === 0 && <p className="text-muted">{t('sessions.empty')}</p>}
      {list.length > 0 && (
        <DataTable
          label={t('sessions.title', { name: subuser.username })}
          testId="subuser-sessions"
          rows={list}
          rowKey={(session) => session.id}
          rowData={(session) => ({ 'data-testid': `subuser-session-${session.id}` })}
          columns={[
            { title: t('sessions.device'), cell: (session) => session.device_name },
            { title: t('sessions.token'), cell: (session) => <code>{session.token_hint}…</code> },
            { title: t('sessions.ip'), cell: (session) => session.ip ?? '—' },
            {
              title: t('sessions.remembered'),
              cell: (session) => (session.remember_me ? t('sessions.yes') : t('sessions.no')),
            },
            { title: t('sessions.lastUsed'), cell: (session) => when(session.last_used_at) },
            { title: t('sessions.expires'), cell: (session) => when(session.expires_at) },
            {
              title: t('sessions.end'),
              hideTitle: true,
              cell: (session) => (
                <RowAction
                  label={t('sessions.end')}
                  target={session.device_name}
                  onClick={() => end.mutate(session.id)}
                  testId={`subuser-session-end-${session.id}`}
                  disabled={end.isPending}
                />
              ),
            },
          ]}
        />
      )}
      <div className="button-row">
        {list.length > 0 && (
          <button
            type="button"
            className="btn btn--danger-outline"
            onClick={() => end.mutate(null)}
            disabled={end.isPending}
            data-testid="subuser-sessions-end-all"
          >
            {t('sessions.endAll')}
          </button>
        )}
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          {t('sessions.close')}
        </button>
      </div>
    </Dialog>
  );
}
