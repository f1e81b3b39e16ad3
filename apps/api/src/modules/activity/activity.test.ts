// Reading the activity log through the API (spec service-management §7 Activity, §9): paging with
// its defaults and bounds, every filter of /filtered (blank values dropped), whole UTC days, the
// two histories, and the audit of one service (another account's service is 404).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVITY_DEFAULT_LIMIT,
  ACTIVITY_MAX_LIMIT,
  LOGIN_ACTION,
  type ActivityPage,
  type ErrorResponse,
} from '@debesis/contract';
import { login, signedInUser } from '../../test/factories.ts';
import { buyService, seedCatalogue } from '../../test/payments.ts';
import { useTestContext } from '../../test/test-app.ts';
import { createActivityQueries, type NewActivityEvent } from './activity.queries.ts';
import { activityEvents } from './activity.table.ts';

type Auth = { authorization: string };
const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

describe('activity routes', () => {
  const ctx = useTestContext({}, seedCatalogue);

  const get = (auth: Auth, url: string) => ctx.app.inject({ method: 'GET', url, headers: auth });
  const page = async (auth: Auth, url: string) => {
    const response = await get(auth, url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ActivityPage>();
  };

  /** An owner whose log holds exactly `entries` (the sign-in of the factory is taken out). */
  async function ownerWithLog(entries: Array<Partial<NewActivityEvent> & { createdAt: Date }>) {
    const owner = await signedInUser(ctx);
    const queries = createActivityQueries(ctx.database.db);
    await ctx.database.db.delete(activityEvents).where(eq(activityEvents.accountId, owner.user.id));
    for (const entry of entries) {
      await queries.insert({ accountId: owner.user.id, action: 'settings updated', tone: 'info', ...entry });
    }
    return owner;
  }

  /** `count` entries one minute apart, the newest first in the list: action `step <n>`. */
  const steps = (count: number) =>
    Array.from({ length: count }, (_, index) => ({
      action: `step ${index}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)),
    }));

  it('pages newest first with skip 0 and limit 50 by default, and says how many there are', async () => {
    const owner = await ownerWithLog(steps(ACTIVITY_DEFAULT_LIMIT + 5));

    const first = await page(owner.auth, '/api/v1/activity/');
    expect(first).toMatchObject({ total: 55, skip: 0, limit: ACTIVITY_DEFAULT_LIMIT });
    expect(first.items).toHaveLength(ACTIVITY_DEFAULT_LIMIT);
    expect(first.items[0]?.action).toBe('step 54');
    expect(first.items.at(-1)?.action).toBe('step 5');

    const second = await page(owner.auth, '/api/v1/activity/?skip=50&limit=50');
    expect(second).toMatchObject({ total: 55, skip: 50, limit: 50 });
    expect(second.items.map((item) => item.action)).toEqual([
      'step 4',
      'step 3',
      'step 2',
      'step 1',
      'step 0',
    ]);

    const small = await page(owner.auth, '/api/v1/activity/?skip=2&limit=3');
    expect(small.items.map((item) => item.action)).toEqual(['step 52', 'step 51', 'step 50']);
    expect((await page(owner.auth, '/api/v1/activity/?skip=500')).items).toEqual([]);
    // Blank paging values are the defaults.
    expect(await page(owner.auth, '/api/v1/activity/?skip=&limit=')).toMatchObject({ skip: 0, limit: 50 });
    expect((await page(owner.auth, `/api/v1/activity/?limit=${ACTIVITY_MAX_LIMIT}`)).items).toHaveLength(55);
  });

  it('answers an entry with its fields, and only the account’s own entries', async () => {
    const serviceId = randomUUID();
    const owner = await ownerWithLog([
      {
        action: 'Samba share created',
        tone: 'success',
        ip: '203.0.113.5',
        serviceId,
        details: { name: 'projects' },
        createdAt: new Date('2026-02-03T04:05:06.000Z'),
      },
    ]);
    await ownerWithLog(steps(3));
    const { items, total } = await page(owner.auth, '/api/v1/activity/');
    expect(total).toBe(1);
    expect(items).toEqual([
      {
        id: expect.any(String) as string,
        action: 'Samba share created',
        tone: 'success',
        ip: '203.0.113.5',
        created_at: '2026-02-03T04:05:06.000Z',
        service_id: serviceId,
        // No service of the account has that id (any more): no name.
        service_name: null,
        details: { name: 'projects' },
      },
    ]);
  });

  it.each([
    ['skip=-1', 'querystring.skip'],
    ['skip=abc', 'querystring.skip'],
    ['skip=1.5', 'querystring.skip'],
    ['limit=0', 'querystring.limit'],
    [`limit=${ACTIVITY_MAX_LIMIT + 1}`, 'querystring.limit'],
    ['limit=ten', 'querystring.limit'],
  ])('refuses ?%s as a validation error (never a 500)', async (query, field) => {
    const owner = await signedInUser(ctx);
    for (const path of ['/api/v1/activity/', '/api/v1/activity/filtered']) {
      const response = await get(owner.auth, `${path}?${query}`);
      expect(response.statusCode, path).toBe(422);
      const body = response.json<ErrorResponse & { errors: Array<{ field: string }> }>();
      expect(body.detail).toBe('validation_error');
      expect(body.errors.map((error) => error.field)).toEqual([field]);
    }
  });

  it('needs a signed-in owner', async () => {
    for (const url of [
      '/api/v1/activity/',
      '/api/v1/activity/filtered',
      `/api/v1/activity/audit/${randomUUID()}`,
    ]) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(401);
    }
  });

  describe('filtered', () => {
    const serviceA = randomUUID();
    const serviceB = randomUUID();
    let owner: Awaited<ReturnType<typeof ownerWithLog>>;
    const actions = async (query: string) =>
      (await page(owner.auth, `/api/v1/activity/filtered${query}`)).items.map((item) => item.action);

    beforeAll(async () => {
      owner = await ownerWithLog([
        {
          action: LOGIN_ACTION,
          tone: 'info',
          ip: '198.51.100.1',
          createdAt: new Date('2025-12-31T23:59:59Z'),
        },
        { action: 'order created', tone: 'success', createdAt: new Date('2026-01-01T00:00:00Z') },
        {
          action: 'payment completed',
          tone: 'success',
          serviceId: serviceA,
          createdAt: new Date('2026-01-01T12:00:00Z'),
        },
        {
          action: 'user deleted',
          tone: 'warning',
          serviceId: serviceA,
          createdAt: new Date('2026-01-01T23:59:59.999Z'),
        },
        {
          action: LOGIN_ACTION,
          tone: 'info',
          ip: '198.51.100.2',
          createdAt: new Date('2026-01-02T00:00:00Z'),
        },
        {
          action: 'service terminated',
          tone: 'error',
          serviceId: serviceB,
          createdAt: new Date('2026-01-03T08:00:00Z'),
        },
      ]);
    });

    it('without filters lists everything', async () => {
      expect(await actions('')).toHaveLength(6);
    });

    it.each([
      ['?action=order%20created', ['order created']],
      ['?tone=success', ['payment completed', 'order created']],
      ['?tone=warning', ['user deleted']],
      ['?tone=error', ['service terminated']],
      [`?service_id=${serviceA}`, ['user deleted', 'payment completed']],
      ['?kind=login', [LOGIN_ACTION, LOGIN_ACTION]],
      ['?kind=management', ['service terminated', 'user deleted', 'payment completed', 'order created']],
      ['?start_date=2026-01-02', ['service terminated', LOGIN_ACTION]],
      ['?end_date=2026-01-01', ['user deleted', 'payment completed', 'order created', LOGIN_ACTION]],
      ['?start_date=2026-01-01&end_date=2026-01-01', ['user deleted', 'payment completed', 'order created']],
      [`?tone=success&service_id=${serviceA}`, ['payment completed']],
      ['?kind=login&start_date=2026-01-01', [LOGIN_ACTION]],
      ['?kind=login&action=order%20created', []],
      [`?kind=management&action=${encodeURIComponent(LOGIN_ACTION)}`, []],
      [`?service_id=${randomUUID()}`, []],
    ])('%s', async (query, expected) => {
      expect(await actions(query)).toEqual(expected);
    });

    it('drops empty and null filter values', async () => {
      expect(await actions('?action=&tone=&kind=&service_id=&start_date=&end_date=')).toHaveLength(6);
      expect(
        await actions('?action=null&tone=null&kind=null&service_id=null&start_date=null&end_date=null'),
      ).toHaveLength(6);
      expect(await actions('?tone=%20&kind=undefined')).toHaveLength(6);
      expect(await actions('?tone=warning&kind=&service_id=null')).toEqual(['user deleted']);
    });

    it('pages the filtered entries with their own total', async () => {
      const first = await page(owner.auth, '/api/v1/activity/filtered?kind=management&limit=3');
      expect(first).toMatchObject({ total: 4, skip: 0, limit: 3 });
      expect(first.items).toHaveLength(3);
      const second = await page(owner.auth, '/api/v1/activity/filtered?kind=management&limit=3&skip=3');
      expect(second.items.map((item) => item.action)).toEqual(['order created']);
    });

    it.each([
      ['tone=loud', 'querystring.tone'],
      ['kind=everything', 'querystring.kind'],
      ['service_id=not-a-uuid', 'querystring.service_id'],
      ['start_date=2026-13-01', 'querystring.start_date'],
      ['end_date=yesterday', 'querystring.end_date'],
      ['start_date=2026-01-02&end_date=2026-01-01', 'querystring.end_date'],
    ])('refuses ?%s with a field error', async (query, field) => {
      const response = await get(owner.auth, `/api/v1/activity/filtered?${query}`);
      expect(response.statusCode).toBe(422);
      expect(
        response.json<{ errors: Array<{ field: string }> }>().errors.map((error) => error.field),
      ).toEqual([field]);
    });
  });

  describe('audit of a service', () => {
    it('lists the service’s own entries, paged, and answers 404 for another account’s service', async () => {
      const owner = await signedInUser(ctx);
      const serviceId = (await buyService(ctx, owner.auth, STARTER)).service_id;
      const queries = createActivityQueries(ctx.database.db);
      for (let index = 0; index < 4; index += 1) {
        await queries.insert({
          accountId: owner.user.id,
          serviceId,
          action: 'user created',
          tone: 'success',
          details: { name: `user${index}` },
          createdAt: new Date(Date.now() + (index + 1) * 1000),
        });
      }

      const audit = await page(owner.auth, `/api/v1/activity/audit/${serviceId}`);
      expect(audit).toMatchObject({ skip: 0, limit: ACTIVITY_DEFAULT_LIMIT });
      expect(audit.items.every((item) => item.service_id === serviceId)).toBe(true);
      // Entries name the service as it is called, so the log reads by name, not by id.
      const overview = await get(owner.auth, '/api/v1/services/overview');
      const name = overview.json<{ services: Array<{ id: string; name: string }> }>().services[0]?.name;
      expect(name).toBeTruthy();
      expect(audit.items.every((item) => item.service_name === name)).toBe(true);
      // The four and the purchase's own (payment completed, at least).
      expect(audit.total).toBeGreaterThanOrEqual(5);
      expect(audit.items.map((item) => item.action)).toContain('payment completed');
      expect(audit.items.map((item) => item.action)).not.toContain(LOGIN_ACTION);
      const paged = await page(owner.auth, `/api/v1/activity/audit/${serviceId}?skip=1&limit=2`);
      expect(paged).toMatchObject({ total: audit.total, skip: 1, limit: 2 });
      expect(paged.items.map((item) => item.details)).toEqual([{ name: 'user2' }, { name: 'user1' }]);

      const stranger = await signedInUser(ctx);
      const refused = await get(stranger.auth, `/api/v1/activity/audit/${serviceId}`);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ detail: 'service_not_found' });
      expect((await get(stranger.auth, `/api/v1/activity/audit/${randomUUID()}`)).statusCode).toBe(404);
      expect((await get(owner.auth, '/api/v1/activity/audit/not-a-uuid')).statusCode).toBe(422);
      expect((await get(owner.auth, `/api/v1/activity/audit/${serviceId}?limit=0`)).statusCode).toBe(422);
      // Nor does the stranger see it through the filters.
      expect((await page(stranger.auth, `/api/v1/activity/filtered?service_id=${serviceId}`)).total).toBe(0);
    });
  });

  it('keeps the login history: each sign-in with its IP address', async () => {
    const owner = await signedInUser(ctx);
    expect((await login(ctx, owner.email, undefined, '192.0.2.44')).statusCode).toBe(200);
    const history = await page(owner.auth, '/api/v1/activity/filtered?kind=login');
    expect(history.total).toBe(2);
    expect(history.items[0]).toMatchObject({
      action: LOGIN_ACTION,
      tone: 'info',
      ip: '192.0.2.44',
      service_id: null,
      service_name: null,
      details: { method: 'password' },
    });
  });
});
