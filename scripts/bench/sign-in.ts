// Sign-in throughput: 20 verified accounts signing in concurrently (argon2id verify, session,
// refresh token, login history and activity rows per sign-in), next to the raw argon2id verify
// rate of this machine measured in the same run.
import { hash, verify } from '@node-rs/argon2';
import { createVerifiedAccounts, PASSWORD } from '../lib/accounts.ts';
import type { RunningServer } from '../lib/processes.ts';
import { measure, type LoadResult } from './load.ts';

export async function measureSignIn(product: RunningServer, durationSeconds: number): Promise<LoadResult> {
  const emails = await createVerifiedAccounts(product.url, product.dataDir, 20);
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
