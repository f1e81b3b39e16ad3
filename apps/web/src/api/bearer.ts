// Whose token a request carries. The owner's is the session's (auth/session.ts). A subuser's
// (`sus_…`) and a Linux user's portal token (`lut_…`) are kept apart from it, under their own
// storage keys, and an area signed in with one of them puts it here while it is shown: the
// shared client then sends it instead, and never tries the owner's refresh on its 401 (the API
// tells the kinds apart by the same prefixes: apps/api/src/http/caller.ts).
import { LINUX_USER_TOKEN_PREFIX, SUBUSER_TOKEN_PREFIX } from '@debesis/contract';

let override: (() => string | null) | null = null;

/** Makes every request carry `token()` until the returned function is called. */
export function setBearerOverride(token: () => string | null): () => void {
  const mine = token;
  override = mine;
  return () => {
    if (override === mine) override = null;
  };
}

/** The token the area shown now asked for, if any. */
export function bearerOverride(): string | null {
  return override ? override() : null;
}

/** Whether a token is an owner's (a JWT), the only kind the owner's refresh can renew. */
export function isOwnerToken(token: string): boolean {
  return !token.startsWith(SUBUSER_TOKEN_PREFIX) && !token.startsWith(LINUX_USER_TOKEN_PREFIX);
}
