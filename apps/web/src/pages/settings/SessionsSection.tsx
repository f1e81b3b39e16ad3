// Where the account is signed in: each live session's device, IP address, when it signed in and
// when it was last active, this one marked; any other can be signed out, which the server
// enforces at that session's next request.
import { accountSessionsResponseSchema, messageResponseSchema, type AccountSession } from '@debesis/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { DefinitionList } from '../../components/DefinitionList.tsx';
import { FormAlert } from '../../components/form/fields.tsx';
import { useLanguage } from '../../i18n/language.ts';
import { formatDateTime, formatRelativeTime } from '../activity/relative-time.ts';
import { failureText, SESSIONS_PATH } from './account-forms.ts';
import { BusyButton } from '../../components/form/BusyButton.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { SettingsSection } from './SettingsSection.tsx';

export const SESSIONS_QUERY_KEY = ['account-sessions'] as const;

export function SessionsSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: SESSIONS_QUERY_KEY,
    queryFn: async () => (await api.get(SESSIONS_PATH, accountSessionsResponseSchema)).sessions,
  });
  const signOut = useMutation({
    mutationFn: (id: string) =>
      api.delete(`${SESSIONS_PATH}/${encodeURIComponent(id)}`, messageResponseSchema),
    // Already ended elsewhere or now: either way the list is read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });

  const list = sessions.data ?? [];
  return (
    <SettingsSection name="sessions" title={t('accountSettings.sessions.title')}>
      <p className="text-muted">{t('accountSettings.sessions.lead')}</p>
      {signOut.isSuccess && (
        <FormAlert tone="success" testId="settings-session-signed-out">
          {t('accountSettings.sessions.signedOut')}
        </FormAlert>
      )}
      {signOut.isError && (
        <FormAlert tone="error" testId="settings-session-error">
          {failureText(signOut.error, t, t('accountSettings.sessions.failed'))}
        </FormAlert>
      )}
      {sessions.isPending ? (
        <p role="status" className="text-muted">
          {t('accountSettings.sessions.loading')}
        </p>
      ) : sessions.isError ? (
        <LoadFailed
          retryLabel={t('accountSettings.sessions.retry')}
          query={sessions}
          testId="settings-sessions-load-error"
        >
          {t('accountSettings.sessions.loadFailed')}
        </LoadFailed>
      ) : (
        <>
          <ul className="session-list" data-testid="settings-sessions">
            {list.map((session) => (
              <SessionItem
                key={session.id}
                session={session}
                busy={signOut.isPending && signOut.variables === session.id}
                onSignOut={() => signOut.mutate(session.id)}
              />
            ))}
          </ul>
          {list.every((session) => session.current) && (
            <p className="text-muted settings-note" data-testid="settings-sessions-only">
              {t('accountSettings.sessions.only')}
            </p>
          )}
        </>
      )}
    </SettingsSection>
  );
}

function SessionItem({
  session,
  busy,
  onSignOut,
}: {
  session: AccountSession;
  busy: boolean;
  onSignOut: () => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const device =
    session.browser && session.os
      ? t('accountSettings.sessions.device', { browser: session.browser, os: session.os })
      : (session.browser ?? session.os ?? t('accountSettings.sessions.unknownDevice'));
  const lastUsed = formatRelativeTime(session.last_used_at, {
    now: new Date(),
    language,
    justNow: t('accountSettings.sessions.justNow'),
  });
  return (
    <li className="session-list__item" data-testid={`settings-session-${session.id}`}>
      <div className="session-list__main">
        <p className="session-list__device">
          <strong title={session.user_agent ?? undefined}>{device}</strong>
          {session.current && (
            <span className="badge badge--success" data-testid="settings-session-current">
              {t('accountSettings.sessions.thisSession')}
            </span>
          )}
        </p>
        <DefinitionList
          className="session-list__facts"
          items={[
            {
              term: t('accountSettings.sessions.ip'),
              value: session.ip ?? t('accountSettings.sessions.unknownIp'),
            },
            {
              term: t('accountSettings.sessions.created'),
              value: formatDateTime(new Date(session.created_at), language),
            },
            {
              term: t('accountSettings.sessions.lastUsed'),
              value: <time dateTime={session.last_used_at}>{lastUsed}</time>,
            },
          ]}
        />
      </div>
      {!session.current && (
        <BusyButton
          busy={busy}
          label={t('accountSettings.sessions.signOut')}
          busyLabel={t('accountSettings.sessions.signingOut')}
          type="button"
          className="btn btn--secondary session-list__action"
          onClick={onSignOut}
          testId={`settings-session-sign-out-${session.id}`}
          aria-label={`${t('accountSettings.sessions.signOut')}: ${device}`}
        />
      )}
    </li>
  );
}
