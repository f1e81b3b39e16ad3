// Where the server sends the browser when the provider sign-in failed (spec §2, §8): the general
// message plus what went wrong with which provider, and the ways back.
import { isMessageCode, OAUTH_PROVIDERS, type OAuthProvider } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import '../../i18n/accounts-messages.ts';
import { AuthCard } from './AuthCard.tsx';

const PROVIDER_NAMES: Record<OAuthProvider, string> = {
  google: 'Google',
  github: 'GitHub',
  microsoft: 'Microsoft',
};

function isProvider(value: string | null): value is OAuthProvider {
  return value !== null && (OAUTH_PROVIDERS as readonly string[]).includes(value);
}

export function OAuthErrorPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('oauth.errorTitle'));
  const [params] = useSearchParams();
  const reasonCode = params.get('reason');
  const provider = params.get('provider');

  // A catalogue code reads as a sentence; the reason is shown as the tail of "…failed: <reason>".
  let reason: string;
  if (reasonCode === 'access_denied') reason = t('errors.oauth_denied');
  else if (reasonCode && reasonCode !== 'oauth_failed' && isMessageCode(reasonCode))
    reason = t(`errors.${reasonCode}`);
  else reason = t('oauth.reasons.unknown');

  return (
    <AuthCard titleId="oauth-error-title" title={t('oauth.errorTitle')} testId="oauth-error">
      <FormAlert tone="error" testId="oauth-error-message">
        <p>{t('oauth.failed')}</p>
        <p data-testid="oauth-error-provider">
          {isProvider(provider)
            ? t('oauth.providerFailed', { provider: PROVIDER_NAMES[provider], reason })
            : t('oauth.failedWithReason', { reason })}
        </p>
      </FormAlert>
      <div className="button-row button-row--stack">
        <Link to="/auth/login" className="btn btn--primary btn--block" data-testid="oauth-error-sign-in">
          {t('auth.backToSignIn')}
        </Link>
        <Link to="/auth/register" className="btn btn--ghost btn--block" data-testid="oauth-error-register">
          {t('oauth.register')}
        </Link>
      </div>
    </AuthCard>
  );
}
