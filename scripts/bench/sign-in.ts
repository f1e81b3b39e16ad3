// Sign-in throughput: 20 verified accounts signing in concurrently (argon2id verify, session,
// refresh token, login history and activity rows per sign-in), next to the raw argon2id verify
// rate of this machine measured in the same run.
import { hash, verify } from '@node-rs/argon2';
import { linkIn, waitForMail } from '../lib/mail.ts';
import type { RunningServer } from '../lib/processes.ts';
import { measure, type LoadResult } from './load.ts';

const PASSWORD = 'Bench-Password-1';

async function csrf(baseUrl: string): Promise<{ cookie: string; token: string }> {
  const response = await fetch(`${baseUrl}/api/v1/csrf`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return { cookie, token: ((await response.json()) as { csrf_token: string }).csrf_token };
}

/** Registers and verifies `count` accounts the way a customer does: form, then the mailed link. */
export async function createVerifiedAccounts(product: RunningServer, count: number): Promise<string[]> {
  const emails = Array.from({ length: count }, (_, index) => `bench-${index}-${Date.now()}@example.lt`);
  const session = await csrf(product.url);
  for (const email of emails) {
    const response = await fetch(`${product.url}/api/v1/auth/register`, {
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
    const link = new URL(linkIn(await waitForMail(product.dataDir, email), '/auth/verify-email'));
    const response = await fetch(`${product.url}/api/v1/auth/verify-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.token },
      body: JSON.stringify({ token: link.searchParams.get('token') }),
    });
    if (response.status !== 200)
      throw new Error(`verify ${email}: ${response.status} ${await response.text()}`);
  }
  return emails;
}

export async function measureSignIn(product: RunningServer, durationSeconds: number): Promise<LoadResult> {
  const emails = await createVerifiedAccounts(product, 20);
  let next = 0;
  return measure('POST /api/v1/auth/login, 20 concurrent users', `${product.url}/api/v1/auth/login`, {
    connections: 20,
    durationSeconds,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    setupRequest: (request) => {
      const email = emails[next++ % emails.length] ?? '';
      return {
        ...request,
        body: new URLSearchParams({ username: email, password: PASSWORD, grant_type: 'password' }).toString(),
      };
    },
  });
}

/** Raw argon2id verifications per second with 20 in flight (the same library and defaults). */
export async function measureArgon2(
  durationSeconds: number,
): Promise<{ perSecond: number; medianMs: number }> {
  const stored = await hash(PASSWORD);
  const timings: number[] = [];
  const deadline = performance.now() + durationSeconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const start = performance.now();
      await verify(stored, PASSWORD);
      timings.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: 20 }, worker));
  const elapsed = (performance.now() - started) / 1000;
  timings.sort((a, b) => a - b);
  return {
    perSecond: Math.round(timings.length / elapsed),
    medianMs: Math.round((timings[Math.floor(timings.length / 2)] ?? 0) * 10) / 10,
  };
}
