// The sandbox's charge ledger: a key charges once, however often and from however many callers
// it is asked, and a key reused for another charge is refused, as Stripe's idempotency keys are.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { IdempotencyKeyReused, createSandboxLedger } from './sandbox-ledger.ts';
import { sandboxCharges } from './sandbox-ledger.table.ts';
import { createSandboxProvider, sandboxMethodRef } from './sandbox.provider.ts';

describe('sandbox charge ledger', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
  });

  const provider = () =>
    createSandboxProvider({
      secret: 'unused-0123456789',
      publicUrl: 'http://localhost',
      ledger: createSandboxLedger(database.db),
    });
  const request = (key: string, methodRef: string, amountMinor = 1234) => ({
    customerRef: 'cus_sb_ledger',
    methodRef,
    amountMinor,
    currency: 'EUR' as const,
    idempotencyKey: key,
    description: 'Starter, 1 mo. (renewal)',
  });
  const rowOf = async (key: string) =>
    (await database.db.select().from(sandboxCharges).where(eq(sandboxCharges.idempotencyKey, key)))[0];

  it('charges a key once and answers every repeat, from any caller, with the first answer', async () => {
    const ok = sandboxMethodRef('ok', 'ledger1');
    const answers = await Promise.all([
      provider().chargeSaved(request('renewal-a-0', ok)),
      provider().chargeSaved(request('renewal-a-0', ok)),
      provider().chargeSaved(request('renewal-a-0', ok)),
    ]);
    expect(answers[0]).toMatchObject({ status: 'succeeded' });
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(await rowOf('renewal-a-0')).toMatchObject({ status: 'succeeded', requests: 3, amountMinor: 1234 });
  });

  it('keeps a declined charge declined under its key, and charges a new key afresh', async () => {
    const declines = sandboxMethodRef('declines', 'ledger2');
    expect(await provider().chargeSaved(request('renewal-b-0', declines))).toMatchObject({
      status: 'declined',
      reason: { code: 'card_declined' },
    });
    expect((await rowOf('renewal-b-0'))?.status).toBe('declined');
    const ok = sandboxMethodRef('ok', 'ledger3');
    expect(await provider().chargeSaved(request('renewal-b-1', ok))).toMatchObject({ status: 'succeeded' });
  });

  it('refuses a key reused for another amount or card, and counts it as asked', async () => {
    const ok = sandboxMethodRef('ok', 'ledger4');
    await provider().chargeSaved(request('renewal-c-0', ok));
    await expect(provider().chargeSaved(request('renewal-c-0', ok, 999))).rejects.toBeInstanceOf(
      IdempotencyKeyReused,
    );
    await expect(
      provider().chargeSaved(request('renewal-c-0', sandboxMethodRef('ok', 'other'))),
    ).rejects.toBeInstanceOf(IdempotencyKeyReused);
    expect(await rowOf('renewal-c-0')).toMatchObject({ amountMinor: 1234, requests: 3 });
  });
});
