// Accounts made the way a customer makes them (register, then the mailed link), for browser
// journeys and benchmarks that need signed-in users.
import { linkIn, waitForMail } from './mail.ts';

export const PASSWORD = 'Bench-Password-1';

/** The CSRF cookie pair a browser gets on its first visit. */
export async function csrf(baseUrl: string): Promise<{ cookie: string; token: string }> {
  const response = await fetch(`${baseUrl}/api/v1/csrf`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return { cookie, token: ((await response.json()) as { csrf_token: string }).csrf_token };
}

/** Registers and verifies `count` accounts the way a customer does: form, then the mailed link. */
export async function createVerifiedAccounts(
  baseUrl: string,
  dataDir: string,
  count: number,
): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, index) => `bench-${index}-${Date.now()}@example.lt`);
  const session = await csrf(baseUrl);
  for (const email of emails) {
    const response = await fetch(`${baseUrl}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email,
        password: PASSWORD,
        firstName: 'Bench',
        lastName: 'Mark',
        country: 'LT',
      }),
    });
    if (response.status !== 201)
      throw new Error(`register ${email}: ${response.status} ${await response.text()}`);
  }
  for (const email of emails) {
    const link = new URL(linkIn(await waitForMail(dataDir, email), '/auth/verify-email'));
    const response = await fetch(`${baseUrl}/api/v1/auth/verify-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.token },
      body: JSON.stringify({ token: link.searchParams.get('token') }),
    });
    if (response.status !== 200)
      throw new Error(`verify ${email}: ${response.status} ${await response.text()}`);
  }
  return emails;
}

/** Signs in through the API; the tokens a browser would keep. */
export async function signInTokens(
  baseUrl: string,
  email: string,
): Promise<{ access_token: string; refresh_token: string }> {
  const response = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password: PASSWORD, grant_type: 'password' }).toString(),
  });
  if (response.status !== 200) throw new Error(`login ${email}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { access_token: string; refresh_token: string };
}
