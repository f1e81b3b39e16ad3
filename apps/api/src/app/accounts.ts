// The account modules: the activity log, rate limits, users, sign-in (auth) and sign-in through
// another provider (oauth).
import { createActivityQueries } from '../modules/activity/activity.queries.ts';
import { createActivityService } from '../modules/activity/activity.service.ts';
import { createAuthQueries } from '../modules/auth/auth.queries.ts';
import { createAuthService } from '../modules/auth/auth.service.ts';
import { createAccessTokens } from '../modules/auth/tokens.ts';
import { createOAuthProviders } from '../modules/oauth/oauth.providers.ts';
import { createOAuthQueries } from '../modules/oauth/oauth.queries.ts';
import { createOAuthService } from '../modules/oauth/oauth.service.ts';
import { createRateLimitQueries } from '../modules/rate-limits/rate-limits.queries.ts';
import { createRateLimiter } from '../modules/rate-limits/rate-limits.service.ts';
import { createServicesQueries } from '../modules/services/services.queries.ts';
import { createUsersQueries } from '../modules/users/users.queries.ts';
import { createUsersService } from '../modules/users/users.service.ts';
import type { AppContext } from './context.ts';

export function buildAccounts({ config, database, now, jobs }: AppContext) {
  const activity = createActivityService({
    queries: createActivityQueries(database.db),
    now,
    ownsService: async (accountId, serviceId) =>
      (await createServicesQueries(database.db).findForAccount(accountId, serviceId)) !== undefined,
    serviceNames: (accountId, ids) => createServicesQueries(database.db).namesOf(accountId, ids),
  });
  const limiter = createRateLimiter({ queries: createRateLimitQueries(database.db), now });
  const usersQueries = createUsersQueries(database.db);
  const users = createUsersService({ queries: usersQueries, activity });
  const authQueries = createAuthQueries(database.db);
  const auth = createAuthService({
    users: usersQueries,
    queries: authQueries,
    tokens: createAccessTokens(config.jwtSecret, now),
    limiter,
    activity,
    sendMail: jobs.sendMail,
    queuePasswordReset: jobs.passwordReset,
    publicUrl: config.publicUrl,
    now,
  });
  const oauth = createOAuthService({
    queries: createOAuthQueries(database.db),
    providers: createOAuthProviders(config),
    users: usersQueries,
    sessions: authQueries,
    auth,
    activity,
    publicUrl: config.publicUrl,
    now,
  });
  return { activity, limiter, usersQueries, users, auth, oauth };
}

export type Accounts = ReturnType<typeof buildAccounts>;
