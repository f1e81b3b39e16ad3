// The public share-link API as the page calls it (base /api/v1/public/shares/{token}). Plain
// fetch, not the app's api client: a visitor has no session, and the client's 401 handling
// (refresh the session, then send to sign-in) would take the link's password request for an
// expired sign-in. The password's grant is an HttpOnly cookie the API scopes to the link's path;
// `credentials: 'same-origin'` lets the browser send it back by itself.
import {
  PUBLIC_SHARES_API_PATH,
  publicShareSchema,
  type Language,
  type PublicShare,
} from '@debesis/contract';

/** What the link's page shows for one place in it. */
export type ShareView =
  | { state: 'shown'; share: PublicShare }
  | { state: 'password' }
  /** A refusal code of the API (`share_link_revoked`, …), or `network_error` when it was not reached. */
  | { state: 'refused'; code: string };

export type UnlockResult =
  | { state: 'unlocked' }
  | { state: 'wrong_password' }
  | { state: 'too_many_attempts'; retryAfter: number | null }
  /** Anything else (the link was revoked meanwhile, …): the page asks again and shows that. */
  | { state: 'other' };

function shareBase(token: string): string {
  return `${PUBLIC_SHARES_API_PATH}${encodeURIComponent(token)}`;
}

/** A file or folder (as a .zip) of the link; `inline` shows it in the browser when it can. */
export function shareDownloadHref(token: string, path: string, inline = false): string {
  return `${shareBase(token)}/download?path=${encodeURIComponent(path)}${inline ? '&inline=1' : ''}`;
}

async function errorOf(response: Response): Promise<{ detail: string; retryAfter: number | null }> {
  try {
    const body = (await response.json()) as { detail?: unknown; retry_after?: unknown };
    return {
      detail: typeof body.detail === 'string' ? body.detail : 'server_error',
      retryAfter: typeof body.retry_after === 'number' ? body.retry_after : null,
    };
  } catch {
    // A proxy's HTML error page, say.
    return { detail: 'server_error', retryAfter: null };
  }
}

const headers = (language: Language) => ({ accept: 'application/json', 'accept-language': language });

export async function fetchShare(
  token: string,
  path: string,
  language: Language,
  signal?: AbortSignal,
): Promise<ShareView> {
  let response: Response;
  try {
    response = await fetch(`${shareBase(token)}?path=${encodeURIComponent(path)}`, {
      credentials: 'same-origin',
      headers: headers(language),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    return { state: 'refused', code: 'network_error' };
  }
  if (response.ok) {
    const parsed = publicShareSchema.safeParse(await response.json().catch(() => null));
    return parsed.success
      ? { state: 'shown', share: parsed.data }
      : { state: 'refused', code: 'server_error' };
  }
  const { detail } = await errorOf(response);
  return detail === 'share_link_password_required'
    ? { state: 'password' }
    : { state: 'refused', code: detail };
}

export async function unlockShare(
  token: string,
  password: string,
  language: Language,
): Promise<UnlockResult> {
  const response = await fetch(`${shareBase(token)}/unlock`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { ...headers(language), 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  if (response.ok) return { state: 'unlocked' };
  const { detail, retryAfter } = await errorOf(response);
  if (detail === 'share_link_wrong_password') return { state: 'wrong_password' };
  if (detail === 'too_many_attempts') return { state: 'too_many_attempts', retryAfter };
  return { state: 'other' };
}
