import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { PageLoading } from '../app/PageLoading.tsx';
import { bootSession, hasStoredTokens, useSession, type ReturnToState } from './session.ts';

/**
 * Dashboard pages need a signed-in user (spec §2, §6). Without a session the visitor goes to sign
 * in, remembering where they were going; while the user loads a spinner shows; when loading
 * failed for good ('Failed to load user data') they can try again.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { status } = useSession();
  const location = useLocation();

  if (status === 'authenticated') return children;
  if (status === 'loading') return <PageLoading />;
  if (status === 'failed' && hasStoredTokens()) {
    return (
      <main className="session-failed container" data-testid="session-load-failed">
        <div className="card empty-state">
          <h1 className="empty-state__title">{t('session.loadFailed')}</h1>
          <div className="button-row">
            <button type="button" className="btn btn--primary" onClick={bootSession}>
              {t('session.retry')}
            </button>
          </div>
        </div>
      </main>
    );
  }
  const state: ReturnToState = { from: `${location.pathname}${location.search}${location.hash}` };
  return <Navigate to="/auth/login" replace state={state} />;
}
