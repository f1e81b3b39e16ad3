// The app-wide robustness test reaches these routes only without a session (401 first). Here the
// owner is signed in and the service exists, so junk reaches the handlers themselves.
import { describe, expect, it } from 'vitest';
import { errorResponseSchema } from '@debesis/contract';
import { useTestContext, csrfSession } from '../../test/test-app.ts';
import { seedCatalogue } from '../../test/payments.ts';
import { ownerWithService, PASSWORD, workspaceCalls } from '../directory/workspace.test-support.ts';

const JUNK_BODIES = [
  '{"a": ',
  'null',
  '[1,2]',
  '"text"',
  JSON.stringify({
    name: 42,
    password: [],
    users: 'x',
    groups: [{}],
    members: [null],
    path: {},
    read: 'yes',
  }),
  JSON.stringify({ name: 'x'.repeat(100_000) }),
  JSON.stringify({ users: Array.from({ length: 2000 }, () => ({ name: 'ona' })) }),
  JSON.stringify({ groups: ['team', 'team'], members: ['ona', 'ona'], primary_group: 'ONA' }),
  '{"__proto__": {"admin": true}}',
];
// Longer path parameters never reach a route: Fastify answers 414 itself (maxParamLength 100).
const NAMES = ['ona', 'team', 'projects', 'ONA', '%00', 'x'.repeat(99)];

describe('users, groups and Samba routes refuse junk from a signed-in owner without a 500', () => {
  const ctx = useTestContext({}, seedCatalogue);

  it('answers every route with a 2xx or an error shape, never 500', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const call = workspaceCalls(ctx);
    await call.post(auth, `/api/v1/user-groups/${serviceId}/users`, { name: 'ona', password: PASSWORD });
    await call.post(auth, `/api/v1/user-groups/${serviceId}/groups`, { name: 'team', members: ['ona'] });
    await call.post(auth, `/api/v1/samba/${serviceId}/shares`, {
      name: 'projects',
      users: [{ name: 'ona' }],
    });

    const document = ctx.app.swagger() as { paths?: Record<string, Record<string, unknown>> };
    const routes = Object.entries(document.paths ?? {}).filter(([route]) =>
      /^\/api\/v1\/(user-groups|samba)\//.test(route),
    );
    expect(routes.length).toBeGreaterThanOrEqual(20);
    const { cookie, token } = await csrfSession(ctx.app);
    const failures: string[] = [];
    for (const [route, methods] of routes) {
      for (const method of Object.keys(methods).map((name) => name.toUpperCase())) {
        if (!['GET', 'POST', 'PATCH', 'DELETE'].includes(method)) continue;
        for (const name of NAMES) {
          const url = route
            .replace('{serviceId}', serviceId)
            .replace(/\{(user|group|share)\}/g, encodeURIComponent(name));
          const bodies = method === 'GET' ? [undefined] : JUNK_BODIES;
          for (const payload of bodies) {
            const response = await ctx.app.inject({
              method: method as 'GET' | 'POST' | 'PATCH' | 'DELETE',
              url: `${url}?primary=${name}`,
              headers: { ...auth, cookie, 'x-csrf-token': token, 'content-type': 'application/json' },
              ...(payload === undefined ? {} : { payload }),
            });
            const shaped =
              response.statusCode < 400 || errorResponseSchema.safeParse(response.json()).success;
            if (response.statusCode >= 500 || !shaped) {
              failures.push(`${method} ${url} ${payload?.slice(0, 40) ?? ''} → ${response.statusCode}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
