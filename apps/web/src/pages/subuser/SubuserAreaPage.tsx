// /subuser: where a signed-in subuser works (spec §6: "access is limited, currently to backup
// functions only"): its service's backups, as the owner's Backups tab shows them, and nothing
// else — no dashboard, no billing, no other service. Its requests carry the subuser's token
// (api/bearer.ts) while the page is shown; a session that ended (401, or a token of another kind)
// sends it back to the sign-in page with a message.
import { subuserIdentitySchema } from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { setBearerOverride } from '../../api/bearer.ts';
import { api, isApiError, noContent } from '../../api/client.ts';
import { clearSubuserToken, getSubuserToken } from '../../auth/subuser-session.ts';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import '../../i18n/accounts-messages.ts';
import { loadNamespace } from '../../i18n/lazy-namespace.ts';
import { formatDateTime } from '../activity/relative-time.ts';
import { BackupsPanel } from '../services/backups/ServiceBackupsTab.tsx';
import { backupsTab } from '../services/backups/tab.ts';
import './subuser-area.css';

const LOGIN = '/auth/login';

/** The page, once the Backups tab's texts are loaded. */
export async function loadSubuserArea() {
  const { messages } = backupsTab;
  if (messages) await loadNamespace(messages.namespace, messages.loaders);
  return SubuserAreaPage;
}

export function SubuserAreaPage() {
  const token = getSubuserToken();
  // Set while rendering, before any child asks anything (children's effects run before their
  // parent's); the effect keeps it for as long as the page is shown and releases it after.
  useState(() => (token ? setBearerOverride(getSubuserToken) : undefined));
  useEffect(() => (token ? setBearerOverride(getSubuserToken) : undefined), [token]);
  if (!token) return <Navigate to={LOGIN} replace />;
  return <SubuserArea />;
}

function SubuserArea() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const me = useQuery({
    queryKey: ['subuser', 'me'],
    queryFn: () => api.get('/api/v1/subusers/auth/me', subuserIdentitySchema),
    retry: false,
  });
  useDocumentTitle(
    me.data ? t('subuserArea.title', { service: me.data.service_name }) : t('subuserArea.loading'),
  );
  const ended = me.isError && isApiError(me.error) && (me.error.status === 401 || me.error.status === 403);
  useEffect(() => {
    if (!ended) return;
    clearSubuserToken();
    void navigate(LOGIN, { replace: true, state: { notice: 'subuser_session_ended' } });
  }, [ended, navigate]);

  async function signOut() {
    await api.post('/api/v1/subusers/auth/logout', undefined, noContent).catch(() => undefined);
    clearSubuserToken();
    void navigate(LOGIN, { replace: true });
  }

  if (me.isPending) return <p className="subuser-area__status">{t('subuserArea.loading')}</p>;
  if (me.isError)
    return (
      <p className="subuser-area__status" role="alert">
        {t('subuserArea.failed')}
      </p>
    );
  const identity = me.data;
  return (
    <div className="subuser-area" data-testid="subuser-area">
      <header className="subuser-area__header">
        <div>
          <h1>{t('subuserArea.title', { service: identity.service_name })}</h1>
          <p className="text-muted">
            {t('subuserArea.signedInAs', { name: identity.username })} ·{' '}
            {t('subuserArea.sessionEnds', {
              time: formatDateTime(new Date(identity.expires_at), i18n.language),
            })}
          </p>
          <p>{t('subuserArea.lead')}</p>
        </div>
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => void signOut()}
          data-testid="subuser-sign-out"
        >
          {t('subuserArea.signOut')}
        </button>
      </header>
      <BackupsPanel serviceId={identity.service_id} />
    </div>
  );
}
