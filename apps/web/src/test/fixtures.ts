// Shared test data and fake API answers for the account flows.
import type { Settings, User } from '@debesis/contract';
import { http, HttpResponse } from 'msw';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'user-1',
    email: 'ona@example.lt',
    first_name: 'Ona',
    last_name: 'Petraitė',
    active: true,
    account_type: 'personal',
    email_verified: true,
    login_count: 3,
    roles: [],
    country: 'LT',
    phone: null,
    address: null,
    company: null,
    has_password: true,
    created_at: '2026-01-01T00:00:00.000Z',
    theme: 'light',
    language: 'en',
    notification_email: true,
    notification_browser: true,
    ...overrides,
  };
}

export function settingsOf(user: User): Settings {
  return {
    theme: user.theme,
    language: user.language,
    notifications: { email: user.notification_email, browser: user.notification_browser },
  };
}

function base64Url(value: string): string {
  return btoa(value).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned JWT whose `exp` is `expiresAt` (ms since the epoch); the client only reads it. */
export function makeJwt(expiresAt: number, subject = 'user-1'): string {
  const header = base64Url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64Url(JSON.stringify({ sub: subject, exp: Math.floor(expiresAt / 1000) }));
  return `${header}.${payload}.signature`;
}

export function tokenAnswer(accessToken: string, refreshToken: string) {
  return { access_token: accessToken, refresh_token: refreshToken, token_type: 'bearer', expires_in: 900 };
}

/** GET /users/me answering with `user`. */
export function userHandler(user: User = makeUser()) {
  return http.get('/api/v1/users/me', () => HttpResponse.json(user));
}

/** Stores tokens as a signed-in browser has them. */
export function storeSession(accessToken = 'access-token', refreshToken = 'refresh-token'): void {
  window.localStorage.setItem('token', accessToken);
  window.localStorage.setItem('refresh_token', refreshToken);
}

/** The public answers every auth page asks for, with nothing to report. */
export const publicAuthHandlers = [
  http.get('/api/v1/auth/oauth/providers', () => HttpResponse.json({ providers: [] })),
  http.get('/api/v1/auth/detect-country', () => HttpResponse.json({ country: null, source: 'none' })),
];

/** A Lithuanian VAT number whose check digits do not match, and what a form says of it (language, number, message). */
export const VAT_CHECK_DIGITS_REFUSED = [
  [
    'en',
    'LT100001919018',
    'This is not a valid VAT number: its check digits do not match. Please check it for a typo',
  ],
  [
    'lt',
    'LT100001919018',
    'Tai netinkamas PVM mokėtojo kodas: nesutampa kontroliniai skaitmenys. Patikrinkite, ar nėra klaidos',
  ],
] as const;
