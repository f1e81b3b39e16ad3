// Every module that changes something writes an activity entry (architecture "audit entries for
// every change"; spec accounts-ordering-billing §3 "Activity entry"): one table, one row per
// change, each made through the API as the web app makes it (or by the worker's jobs), and the
// entry read back through GET /activity/filtered with its tone, service and the caller's IP.
import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_ACTIONS,
  LOGIN_ACTION,
  type ActivityEntry,
  type ActivityPage,
  type ActivityTone,
} from '@debesis/contract';
import { login, PASSWORD as ACCOUNT_PASSWORD } from '../../test/factories.ts';
import { buyService, payOrder } from '../../test/payments.ts';
import { seedCatalogue } from '../../test/payments.ts';
import { serviceJobs } from '../../test/services.ts';
import { injectWithCsrf, useTestContext } from '../../test/test-app.ts';
import { DAY_MS } from '../services/lifecycle.constants.ts';
import { ownerWithService, PASSWORD, setService } from '../directory/workspace.test-support.ts';

/** The address every change in this file comes from. */
const IP = '203.0.113.77';
const OPTIMIZED = { product_id: 'optimized', disk_space: 500, users_count: 10, period_id: '12m' };
const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '12m' };

type Owner = Awaited<ReturnType<typeof ownerWithService>>;
type Auth = Owner['auth'];

describe('every change writes an activity entry', () => {
  /** One owner and active service for the changes that leave it usable. */
  let shared: Owner;

  const ctx = useTestContext({}, async (ctx) => {
    await seedCatalogue(ctx);
    shared = await ownerWithService(ctx);
  });

  const send = async (
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    auth: Auth,
    url: string,
    payload?: object,
  ) => {
    const response = await injectWithCsrf(ctx.app, {
      method,
      url,
      headers: auth,
      remoteAddress: IP,
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response;
  };
  const entries = async (auth: Auth, action: string): Promise<ActivityPage> => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/activity/filtered?action=${encodeURIComponent(action)}&limit=200`,
      headers: auth,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ActivityPage>();
  };

  interface Row {
    /** Makes the change; answers whose log and which service the entry belongs to. */
    change: () => Promise<{ auth: Auth; serviceId: string | null }>;
    action: string;
    tone: ActivityTone;
    /** Whether the entry carries the caller's address (not for the provider's or the worker's). */
    fromCaller: boolean;
  }

  const sharedChange =
    (run: (owner: Owner) => Promise<unknown>, service = true) =>
    async () => {
      await run(shared);
      return { auth: shared.auth, serviceId: service ? shared.serviceId : null };
    };
  const users = (owner: Owner) => `/api/v1/user-groups/${owner.serviceId}`;
  const samba = (owner: Owner) => `/api/v1/samba/${owner.serviceId}`;

  const table: Record<string, Row> = {
    'password sign-in': {
      change: async () => {
        expect((await login(ctx, shared.owner.email, ACCOUNT_PASSWORD, IP)).statusCode).toBe(200);
        return { auth: shared.auth, serviceId: null };
      },
      action: LOGIN_ACTION,
      tone: 'info',
      fromCaller: true,
    },
    'account settings': {
      change: sharedChange((o) => send('PUT', o.auth, '/api/v1/settings/', { theme: 'dark' }), false),
      action: 'settings updated',
      tone: 'info',
      fromCaller: true,
    },
    profile: {
      change: sharedChange((o) => send('PUT', o.auth, '/api/v1/users/me', { first_name: 'Onutė' }), false),
      action: 'settings updated',
      tone: 'info',
      fromCaller: true,
    },
    'billing info': {
      change: sharedChange(
        (o) =>
          send('PUT', o.auth, '/api/v1/billing/info', {
            company_name: null,
            vat_number: null,
            billing_address: {
              street: 'Gedimino pr. 9',
              city: 'Vilnius',
              postal_code: 'LT-01103',
              country: 'LT',
            },
          }),
        false,
      ),
      action: 'billing info updated',
      tone: 'info',
      fromCaller: true,
    },
    'new order': {
      change: sharedChange((o) => send('POST', o.auth, '/api/v1/orders/', STARTER), false),
      action: 'order created',
      tone: 'success',
      fromCaller: true,
    },
    'extension order': {
      change: sharedChange((o) => send('POST', o.auth, `/api/v1/orders/service/${o.serviceId}/extend`, {})),
      action: 'order created',
      tone: 'success',
      fromCaller: true,
    },
    'payment (provider event) of a new service': {
      change: async () => {
        const order = await buyService(ctx, shared.auth, STARTER);
        return { auth: shared.auth, serviceId: order.service_id };
      },
      action: 'payment completed',
      tone: 'success',
      fromCaller: false,
    },
    'service stop': {
      change: sharedChange((o) => send('POST', o.auth, `/api/v1/services/${o.serviceId}/stop`)),
      action: 'service stopped',
      tone: 'info',
      fromCaller: true,
    },
    'service start (action)': {
      change: sharedChange(async (o) => {
        await setService(ctx, o.serviceId, { runState: 'stopped' });
        await send('POST', o.auth, `/api/v1/services/${o.serviceId}/action`, { action: 'start', params: {} });
      }),
      action: 'service started',
      tone: 'info',
      fromCaller: true,
    },
    'service restart': {
      change: sharedChange(async (o) => {
        await setService(ctx, o.serviceId, { runState: 'running' });
        await send('POST', o.auth, `/api/v1/services/${o.serviceId}/restart`);
      }),
      action: 'service restarted',
      tone: 'info',
      fromCaller: true,
    },
    'service rename': {
      change: sharedChange((o) =>
        send('PUT', o.auth, `/api/v1/services/${o.serviceId}`, { name: 'Renamed' }),
      ),
      action: 'settings updated',
      tone: 'info',
      fromCaller: true,
    },
    'service config': {
      change: sharedChange((o) =>
        send('PUT', o.auth, `/api/v1/services/${o.serviceId}/config`, { expiry_reminders: false }),
      ),
      action: 'settings updated',
      tone: 'info',
      fromCaller: true,
    },
    'workspace user created': {
      change: sharedChange((o) =>
        send('POST', o.auth, `${users(o)}/users`, { name: 'ona', password: PASSWORD }),
      ),
      action: 'user created',
      tone: 'success',
      fromCaller: true,
    },
    'workspace user deleted': {
      change: sharedChange(async (o) => {
        await send('POST', o.auth, `${users(o)}/users`, { name: 'jonas', password: PASSWORD });
        await send('DELETE', o.auth, `${users(o)}/users/jonas`);
      }),
      action: 'user deleted',
      tone: 'warning',
      fromCaller: true,
    },
    'group created': {
      change: sharedChange((o) => send('POST', o.auth, `${users(o)}/groups`, { name: 'team' })),
      action: 'group created',
      tone: 'success',
      fromCaller: true,
    },
    'group deleted': {
      change: sharedChange(async (o) => {
        await send('POST', o.auth, `${users(o)}/groups`, { name: 'temp' });
        await send('DELETE', o.auth, `${users(o)}/groups/temp`);
      }),
      action: 'group deleted',
      tone: 'warning',
      fromCaller: true,
    },
    'Samba share created': {
      change: sharedChange((o) => send('POST', o.auth, `${samba(o)}/shares`, { name: 'projects' })),
      action: 'Samba share created',
      tone: 'success',
      fromCaller: true,
    },
    'Samba share deleted': {
      change: sharedChange(async (o) => {
        await send('POST', o.auth, `${samba(o)}/shares`, { name: 'old' });
        await send('DELETE', o.auth, `${samba(o)}/shares/old`);
      }),
      action: 'Samba share deleted',
      tone: 'warning',
      fromCaller: true,
    },
    'plan upgrade ordered': {
      change: async () => {
        const owner = await ownerWithService(ctx);
        await send('POST', owner.auth, '/api/v1/plan-changes/', {
          service_id: owner.serviceId,
          ...OPTIMIZED,
        });
        return { auth: owner.auth, serviceId: owner.serviceId };
      },
      action: 'plan change ordered',
      tone: 'info',
      fromCaller: true,
    },
    'plan downgrade applied': {
      change: async () => {
        const owner = await ownerWithService(ctx);
        await send('POST', owner.auth, '/api/v1/plan-changes/', {
          service_id: owner.serviceId,
          ...STARTER,
          confirm_downgrade: true,
        });
        return { auth: owner.auth, serviceId: owner.serviceId };
      },
      action: 'plan changed',
      tone: 'success',
      fromCaller: true,
    },
    'service cancelled': {
      change: async () => {
        const owner = await ownerWithService(ctx);
        await send('POST', owner.auth, `/api/v1/services/${owner.serviceId}/action`, {
          action: 'cancel',
          params: {},
        });
        return { auth: owner.auth, serviceId: owner.serviceId };
      },
      action: 'service cancelled',
      tone: 'warning',
      fromCaller: true,
    },
    'service terminated by the owner': {
      change: async () => {
        const owner = await ownerWithService(ctx);
        await send('POST', owner.auth, `/api/v1/services/${owner.serviceId}/action`, {
          action: 'terminate',
          params: {},
        });
        return { auth: owner.auth, serviceId: owner.serviceId };
      },
      action: 'service terminated',
      tone: 'error',
      fromCaller: true,
    },
    'service quarantined by the sweep': {
      change: async () => {
        const owner = await ownerWithService(ctx);
        await setService(ctx, owner.serviceId, {
          status: 'expired',
          validUntil: new Date(Date.now() - 8 * DAY_MS),
          statusChangedAt: new Date(Date.now() - DAY_MS),
        });
        expect((await serviceJobs(ctx).sweep.run()).quarantined).toBeGreaterThanOrEqual(1);
        return { auth: owner.auth, serviceId: owner.serviceId };
      },
      action: 'service quarantined',
      tone: 'warning',
      fromCaller: false,
    },
    'service restored by a paid extension': {
      change: async () => {
        const owner = await ownerWithService(ctx);
        await setService(ctx, owner.serviceId, {
          status: 'expired',
          validUntil: new Date(Date.now() - DAY_MS),
        });
        const order = await send('POST', owner.auth, `/api/v1/orders/service/${owner.serviceId}/extend`, {});
        await payOrder(ctx, owner.auth, order.json<{ id: string }>().id);
        return { auth: owner.auth, serviceId: owner.serviceId };
      },
      action: 'service restored',
      tone: 'success',
      fromCaller: false,
    },
  };

  it.each(Object.entries(table))('%s', async (_name, row) => {
    // Entries of this action already in the log of the account the change belongs to.
    const before = new Set((await entries(shared.auth, row.action)).items.map((item) => item.id));
    const { auth, serviceId } = await row.change();
    const after = (await entries(auth, row.action)).items;
    const added = after.filter((item) => !before.has(item.id) && item.service_id === serviceId);
    expect(added.length, `new "${row.action}" entries`).toBeGreaterThanOrEqual(1);
    const entry = added[0] as ActivityEntry;
    expect(entry).toMatchObject({ action: row.action, tone: row.tone, service_id: serviceId });
    if (row.fromCaller) expect(entry.ip).toBe(IP);
    expect(Date.now() - Date.parse(entry.created_at)).toBeLessThan(60_000);
    // A code the web app has a text for in both languages (its test checks every listed code).
    expect(ACTIVITY_ACTIONS).toContain(row.action);
  });

  it('writes "payment completed" with the service it paid for, for an extension too', async () => {
    const owner = await ownerWithService(ctx);
    const order = await send('POST', owner.auth, `/api/v1/orders/service/${owner.serviceId}/extend`, {});
    await payOrder(ctx, owner.auth, order.json<{ id: string }>().id);
    const paid = (await entries(owner.auth, 'payment completed')).items;
    expect(paid.map((item) => item.service_id)).toEqual([owner.serviceId, owner.serviceId]);
    expect(paid[0]?.details).toMatchObject({ order_id: order.json<{ id: string }>().id });
  });
});
