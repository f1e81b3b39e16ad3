// The signed-in customer most page tests start from: tokens stored as the browser keeps them, the
// CSRF cookie of a first visit (so a change needs no extra request), and GET /users/me answering.
import type { User } from '@debesis/contract';
import type { RequestHandler } from 'msw';
import { makeUser, storeSession, userHandler } from './fixtures.ts';
import { server } from './server.ts';
import { setCsrfCookie } from './workspace-fixtures.ts';

/** Signs `user` in, with `handlers` answering beside GET /users/me. */
export function signIn({
  user = makeUser(),
  handlers = [],
}: { user?: User; handlers?: RequestHandler[] } = {}) {
  storeSession();
  setCsrfCookie();
  server.use(userHandler(user), ...handlers);
}
