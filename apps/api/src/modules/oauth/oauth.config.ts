// The OAuth variables of the API's configuration. `config.ts` spreads `oauthEnvironmentShape` into
// its schema, so they are parsed and documented with every other variable. A provider is enabled
// only when both its client id and secret are set; the URLs default to the real providers and
// exist so that tests (and a staging set-up) can point a provider at a local server.
import { z } from 'zod';

/** An unset or empty variable is "not configured". */
const optionalSecret = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value ? value : undefined));

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** True for plain-HTTP URLs on this machine, the only place a provider may be reached without TLS. */
export function isLoopbackHttp(url: string): boolean {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  return parsed?.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname);
}

/** HTTPS, or plain HTTP on the loopback interface (local test providers). */
const providerUrl = (fallback: string) =>
  z
    .url()
    .refine((value) => value.startsWith('https://') || isLoopbackHttp(value), {
      message: 'must be an https:// URL (http:// only on 127.0.0.1 or localhost)',
    })
    .default(fallback)
    .transform((value) => value.replace(/\/+$/, ''));

export const oauthEnvironmentShape = {
  OAUTH_GOOGLE_CLIENT_ID: optionalSecret.describe(
    'Google OAuth client id (console.cloud.google.com → Credentials); with its secret set, Google sign-in is offered.',
  ),
  OAUTH_GOOGLE_CLIENT_SECRET: optionalSecret.describe('The Google OAuth client secret.'),
  OAUTH_GOOGLE_ISSUER: providerUrl('https://accounts.google.com').describe(
    'OpenID issuer used for Google; only tests change it.',
  ),
  OAUTH_GITHUB_CLIENT_ID: optionalSecret.describe(
    'GitHub OAuth app client id (Settings → Developer settings → OAuth Apps); with its secret set, GitHub sign-in is offered.',
  ),
  OAUTH_GITHUB_CLIENT_SECRET: optionalSecret.describe('The GitHub OAuth app client secret.'),
  OAUTH_GITHUB_BASE_URL: providerUrl('https://github.com').describe(
    "Where GitHub's `/login/oauth/authorize` and `/login/oauth/access_token` live; only tests change it.",
  ),
  OAUTH_GITHUB_API_URL: providerUrl('https://api.github.com').describe(
    "GitHub's REST API (`GET /user`, `/user/emails`); only tests change it.",
  ),
  OAUTH_MICROSOFT_CLIENT_ID: optionalSecret.describe(
    'Microsoft Entra ID app registration client id; with its secret set, Microsoft sign-in is offered.',
  ),
  OAUTH_MICROSOFT_CLIENT_SECRET: optionalSecret.describe('The Microsoft Entra ID client secret.'),
  OAUTH_MICROSOFT_ISSUER: providerUrl('https://login.microsoftonline.com/common/v2.0').describe(
    "OpenID issuer used for Microsoft. The default admits work, school and personal accounts of any tenant; a tenant's own issuer (`…/<tenant-id>/v2.0`) admits only that tenant.",
  ),
};

export const oauthEnvironmentSchema = z.object(oauthEnvironmentShape);
export type OAuthEnvironment = z.output<typeof oauthEnvironmentSchema>;
