// The CSRF double-submit of spec §7: the server sets a readable `csrf_token` cookie, and every
// request that changes something echoes it in the X-CSRF-Token header.
import { CSRF_COOKIE, csrfResponseSchema } from '@debesis/contract';
import type { AxiosInstance } from 'axios';

export const CSRF_PATH = '/api/v1/csrf';

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [rawName, ...rest] = part.trim().split('=');
    if (rawName === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

let pending: Promise<string> | null = null;

/**
 * The token to send. Without the cookie, asks the server once for a new one; requests started
 * meanwhile wait for that same answer rather than each asking again.
 */
export function ensureCsrfToken(http: AxiosInstance): Promise<string> {
  const fromCookie = readCookie(CSRF_COOKIE);
  if (fromCookie) return Promise.resolve(fromCookie);
  pending ??= http
    .get<unknown>(CSRF_PATH)
    .then((response) => readCookie(CSRF_COOKIE) ?? csrfResponseSchema.parse(response.data).csrf_token)
    .finally(() => {
      pending = null;
    });
  return pending;
}
