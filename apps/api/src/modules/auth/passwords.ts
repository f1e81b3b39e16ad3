// argon2id through @node-rs/argon2 (its defaults: 19 MiB, 2 passes — OWASP's minimum). Unknown
// accounts are checked against a dummy hash so that a wrong email and a wrong password take the
// same time.
import { hash, verify } from '@node-rs/argon2';

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

let dummyHash: Promise<string> | undefined;

/** Verifies against `stored`, or burns the same time against a dummy when there is none. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hash('dummy-password-for-timing-only');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
