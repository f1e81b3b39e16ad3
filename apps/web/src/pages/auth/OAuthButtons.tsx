// Sign-in with Google, GitHub or Microsoft (spec §2). Each button is a plain link: the browser
// leaves for the provider and comes back to /auth/oauth/callback. Only providers the server
// has switched on are shown; when the list cannot be loaded there are simply no buttons.
import { oauthProvidersResponseSchema, type OAuthProvider } from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { GitHubMark, GoogleMark, MicrosoftMark } from './provider-marks.tsx';

export const OAUTH_PROVIDERS_PATH = '/api/v1/auth/oauth/providers';

const MARKS: Record<OAuthProvider, ComponentType> = {
  google: GoogleMark,
  github: GitHubMark,
  microsoft: MicrosoftMark,
};

export function oauthStartUrl(provider: OAuthProvider, redirect: string): string {
  return `/api/v1/auth/oauth/${provider}/start?redirect=${encodeURIComponent(redirect)}`;
}

export function useOAuthProviders() {
  return useQuery({
    queryKey: ['oauth-providers'],
    queryFn: () => api.get(OAUTH_PROVIDERS_PATH, oauthProvidersResponseSchema),
    select: (answer) => answer.providers.filter((provider) => provider.enabled),
    retry: false,
  });
}

/** `redirect`: the app path to come back to after signing in. */
export function OAuthButtons({ redirect }: { redirect: string }) {
  const { t } = useTranslation();
  const { data: providers = [] } = useOAuthProviders();
  if (providers.length === 0) return null;
  return (
    <div className="oauth" data-testid="oauth-buttons">
      <p className="oauth__divider">
        <span>{t('oauth.divider')}</span>
      </p>
      <ul role="list" className="oauth__list">
        {providers.map(({ id, name }) => {
          const Mark = MARKS[id];
          return (
            <li key={id}>
              <a
                className="btn btn--secondary btn--block oauth__button"
                href={oauthStartUrl(id, redirect)}
                data-testid={`oauth-${id}`}
              >
                <Mark />
                {t('oauth.continueWith', { provider: name })}
              </a>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
