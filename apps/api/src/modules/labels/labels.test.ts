import { describe, expect, it } from 'vitest';
import { LABEL_LIMIT, type Label, type LabelsResponse } from '@debesis/contract';
import { eq } from 'drizzle-orm';
import { services } from '../services/services.table.ts';
import {
  activityOf,
  expectHiddenFromStranger,
  ownerWithService,
  useWorkspaceTestApp,
  type Auth,
} from '../directory/workspace.test-support.ts';
import { serviceLabels } from './labels.table.ts';

describe('labels', () => {
  const { ctx, call } = useWorkspaceTestApp();

  const base = (serviceId: string) => `/api/v1/services/${serviceId}/labels`;
  const put = (auth: Auth, serviceId: string, key: string, value: string) =>
    call.put(auth, `${base(serviceId)}/${key}`, { value });

  async function set(auth: Auth, serviceId: string, key: string, value: string): Promise<Label> {
    const response = await put(auth, serviceId, key, value);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Label>();
  }

  const list = async (auth: Auth, serviceId: string) => {
    const response = await call.get(auth, base(serviceId));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<LabelsResponse>().labels;
  };

  it('makes a label, replaces its value and lists them sorted by key, recording each change', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    expect(await list(auth, serviceId)).toEqual([]);
    const made = await set(auth, serviceId, 'team', 'finance');
    expect(made).toEqual({ key: 'team', value: 'finance', updated_at: expect.any(String) as string });
    await set(auth, serviceId, 'env', 'prod');
    await set(auth, serviceId, 'customer.id', '');
    const replaced = await set(auth, serviceId, 'env', 'Staging_2');
    expect(replaced.value).toBe('Staging_2');
    expect((await list(auth, serviceId)).map(({ key, value }) => `${key}=${value}`)).toEqual([
      'customer.id=',
      'env=Staging_2',
      'team=finance',
    ]);
    // The same value again changes nothing and records nothing.
    await set(auth, serviceId, 'env', 'Staging_2');
    expect(await activityOf(ctx, serviceId)).toEqual(
      expect.arrayContaining([
        { action: 'label set', tone: 'info', details: { key: 'team', value: 'finance' } },
        { action: 'label set', tone: 'info', details: { key: 'env', value: 'prod' } },
        { action: 'label set', tone: 'info', details: { key: 'customer.id', value: '' } },
        { action: 'label set', tone: 'info', details: { key: 'env', value: 'Staging_2' } },
      ]),
    );
    const labelEntries = (await activityOf(ctx, serviceId)).filter((entry) => entry.action === 'label set');
    expect(labelEntries).toHaveLength(4);
  });

  it('removes a label (204, recorded with its key and value) and answers label_not_found after', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await set(auth, serviceId, 'env', 'prod');
    const removed = await call.del(auth, `${base(serviceId)}/env`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await list(auth, serviceId)).toEqual([]);
    expect((await activityOf(ctx, serviceId)).at(-1)).toEqual({
      action: 'label removed',
      tone: 'info',
      details: { key: 'env', value: 'prod' },
    });
    const again = await call.del(auth, `${base(serviceId)}/env`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ detail: 'label_not_found' });
    const lt = await call.del({ ...auth, 'accept-language': 'lt' }, `${base(serviceId)}/env`);
    expect(lt.json()).toMatchObject({ message: 'Ši paslauga neturi etiketės su tokiu raktu.' });
  });

  it(`holds ${LABEL_LIMIT} labels at most, yet replaces one of them when full`, async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    for (let index = 0; index < LABEL_LIMIT; index += 1) await set(auth, serviceId, `k${index}`, 'v');
    const over = await put(auth, serviceId, 'one-more', 'v');
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({
      detail: 'label_limit',
      message: `This service has as many labels as it may have (${LABEL_LIMIT}). Delete one first.`,
    });
    expect((await set(auth, serviceId, 'k0', 'changed')).value).toBe('changed');
    expect(await list(auth, serviceId)).toHaveLength(LABEL_LIMIT);
  });

  it('refuses a bad key or value with its field code, in English and Lithuanian', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    const badKeys = ['Env', '-env', 'env-', 'e=v', 'a'.repeat(64), 'ąžuolas', 'env%20x'];
    for (const key of badKeys) {
      const response = await put(auth, serviceId, key, 'prod');
      expect(response.statusCode, key).toBe(422);
      expect(response.json(), key).toMatchObject({
        detail: 'validation_error',
        errors: [{ field: 'params.key', code: 'label_key_invalid' }],
      });
    }
    const badValues = ['-prod', 'prod.', 'a b', 'a'.repeat(64), 'x,y'];
    for (const value of badValues) {
      const response = await put(auth, serviceId, 'env', value);
      expect(response.statusCode, value).toBe(422);
      expect(response.json(), value).toMatchObject({
        errors: [{ field: 'value', code: 'label_value_invalid' }],
      });
    }
    // 63 characters is the longest, both ways.
    await set(auth, serviceId, 'k'.repeat(63), 'V'.repeat(63));

    const en = await put(auth, serviceId, 'Env', 'prod');
    expect(en.json<{ errors: Array<{ message: string }> }>().errors[0]?.message).toMatch(
      /^Use 1–63 lower-case/,
    );
    const ltKey = await put({ ...auth, 'accept-language': 'lt' }, serviceId, 'Env', 'prod');
    expect(ltKey.json<{ errors: Array<{ message: string }> }>().errors[0]?.message).toMatch(
      /^Naudokite 1–63 mažąsias raides/,
    );
    const ltValue = await put({ ...auth, 'accept-language': 'lt' }, serviceId, 'env', 'a b');
    expect(ltValue.json<{ errors: Array<{ message: string }> }>().errors[0]?.message).toMatch(
      /^Naudokite iki 63 raidžių/,
    );
    expect(await list(auth, serviceId)).toHaveLength(1);
    expect((await activityOf(ctx, serviceId)).filter((entry) => entry.action === 'label set')).toHaveLength(
      1,
    );
  });

  it('hides a workspace’s labels from another account and from callers without a session', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await set(auth, serviceId, 'env', 'prod');
    const stranger = await ownerWithService(ctx);
    await expectHiddenFromStranger(call, stranger.auth, base(serviceId), [
      ['GET', ''],
      ['PUT', '/env', { value: 'stolen' }],
      ['PUT', '/new', { value: 'x' }],
      ['DELETE', '/env'],
    ]);
    expect((await list(auth, serviceId)).map(({ key, value }) => `${key}=${value}`)).toEqual(['env=prod']);
    // The stranger's own workspace keeps its own labels apart.
    await set(stranger.auth, stranger.serviceId, 'env', 'test');
    expect((await list(stranger.auth, stranger.serviceId)).map(({ value }) => value)).toEqual(['test']);
  });

  it('goes with its workspace', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await set(auth, serviceId, 'env', 'prod');
    await ctx.database.db.delete(services).where(eq(services.id, serviceId));
    expect(
      await ctx.database.db.select().from(serviceLabels).where(eq(serviceLabels.serviceId, serviceId)),
    ).toEqual([]);
  });
});
