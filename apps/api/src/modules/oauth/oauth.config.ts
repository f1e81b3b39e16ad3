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
  /** Google OAuth client (console.cloud.google.com → Credentials); both set to offer Google sign-in. */
  OAUTH_GOOGLE_CLIENT_ID: optionalSecret,
  OAUTH_GOOGLE_CLIENT_SECRET: optionalSecret,
  /** OpenID issuer used for Google; only tests change it. */
  OAUTH_GOOGLE_ISSUER: providerUrl('https://accounts.google.com'),
  /** GitHub OAuth app (Settings → Developer settings → OAuth Apps); both set to offer GitHub sign-in. */
  OAUTH_GITHUB_CLIENT_ID: optionalSecret,
  OAUTH_GITHUB_CLIENT_SECRET: optionalSecret,
  /** Where GitHub's /login/oauth/authorize and /login/oauth/access_token live; only tests change it. */
  OAUTH_GITHUB_BASE_URL: providerUrl('https://github.com'),
  /** GitHub's REST API (GET /user, /user/emails); only tests change it. */
  OAUTH_GITHUB_API_URL: providerUrl('https://api.github.com'),
  /** Microsoft Entra ID app registration; both set to offer Microsoft sign-in. */
  OAUTH_MICROSOFT_CLIENT_ID: optionalSecret,
  OAUTH_MICROSOFT_CLIENT_SECRET: optionalSecret,
  /**
   * OpenID issuer used for Microsoft. The default admits work, school and personal accounts of
   * any tenant; a tenant's own issuer (…/<tenant-id>/v2.0) admits only that tenant.
   */
  OAUTH_MICROSOFT_ISSUER: providerUrl('https://login.microsoftonline.com/common/v2.0'),
};

export const oauthEnvironmentSchema = z.object(oauthEnvironmentShape);
export type OAuthEnvironment = z.output<typeof oauthEnvironmentSchema>;
