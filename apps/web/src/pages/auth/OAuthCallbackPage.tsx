// Where the server sends the browser after the provider (spec §2): trades the one-time code for
// tokens (POST /auth/oauth/exchange), then carries on like any sign-in towards `redirect`.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { api } from '../../api/client.ts';
import { afterLogin } from '../../auth/after-login.ts';
import { commonSignInError, signInWithAnswer } from '../../auth/login.ts';
import { safeReturnPath } from '../../auth/session.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import '../../i18n/accounts-messages.ts';
import { AuthCard } from './AuthCard.tsx';
import './auth.css';

export const OAUTH_EXCHANGE_PATH = '/api/v1/auth/oauth/exchange';

async function exchange(code: string): Promise<true> {
  const answer = await api.post(OAUTH_EXCHANGE_PATH, { code }, z.unknown());
  await signInWithAnswer(answer);
  return true;
}

export function OAuthCallbackPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('oauth.callbackTitle'));
  const [params] = useSearchParams();
  const code = params.get('code');
  const redirect = safeReturnPath(params.get('redirect'));
  const navigate = useNavigate();
  const location = useLocation();

  // The code works once: a query (not an effect) makes sure it is sent once.
  const signIn = useQuery({
    queryKey: ['oauth-exchange', code],
    queryFn: () => exchange(code ?? ''),
    enabled: code !== null,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });

  const done = signIn.isSuccess;
  useEffect(() => {
    if (done) void afterLogin({ from: redirect, pathname: location.pathname, navigate });
  }, [done, redirect, location.pathname, navigate]);

  if (code !== null && !signIn.isError) {
    return (
      <section className="card auth-card auth-status" role="status" data-testid="oauth-callback-pending">
        <span className="spinner" aria-hidden="true" />
        <h1 className="auth-card__title">{t('oauth.callbackTitle')}</h1>
      </section>
    );
  }

  const detail = signIn.isError ? commonSignInError(signIn.error, t) : null;
  return (
    <AuthCard titleId="oauth-callback-title" title={t('oauth.errorTitle')} testId="oauth-callback-error">
      <FormAlert tone="error">
        {t('oauth.failed')}
        {detail && detail !== t('oauth.failed') ? ` ${detail}` : ''}
      </FormAlert>
      <Link to="/auth/login" className="btn btn--primary btn--block" data-testid="oauth-back-to-sign-in">
        {t('auth.backToSignIn')}
      </Link>
    </AuthCard>
  );
}
