// An activity entry commits with the change it records: when the entry cannot be written, the
// change is rolled back too (and a payment event can be delivered again), never a change without
// its entry. A trigger refuses one action's entries for one account, so only the test's own
// writes fail.
import { describe, expect, it } from 'vitest';
import { injectWithCsrf, useTestContext } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import {
  openSession,
  sandboxEvent,
  seedCatalogue,
  sendSandboxEvent,
  placeOrder,
} from '../../test/payments.ts';

const MINI = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '12m' };

describe('activity written in the transaction of its change', () => {
  const ctx = useTestContext({}, async (ctx) => {
    await seedCatalogue(ctx);
    await ctx.database.executeSql(`
    create table refused_activity (account_id uuid not null, action text not null);
    create function refuse_activity() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from refused_activity r
                 where r.account_id = new.account_id and r.action = new.action) then
        raise exception 'activity refused for the test';
      end if;
      return new;
    end $$;
    create trigger refuse_activity before insert on activity_events
      for each row execute function refuse_activity();`);
  });

  const refuse = (accountId: string, action: string) =>
    ctx.database.executeSql('insert into refused_activity values ($1, $2)', [accountId, action]);
  const allow = (accountId: string) =>
    ctx.database.executeSql('delete from refused_activity where account_id = $1', [accountId]);
  const ordersOf = async (accountId: string) =>
    (await ctx.database.executeSql('select status from orders where account_id = $1', [accountId])).rows.map(
      (row) => row.status,
    );

  it('places no order when its "order created" entry cannot be written', async () => {
    const owner = await signedInUser(ctx);
    await refuse(owner.user.id, 'order created');
    const response = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/orders/',
      headers: owner.auth,
      payload: MINI,
    });
    expect(response.statusCode).toBe(500);
    expect(await ordersOf(owner.user.id)).toEqual([]);
  });

  it('pays nothing while "payment completed" cannot be written; the same event pays once it can', async () => {
    const owner = await signedInUser(ctx);
    const order = await placeOrder(ctx, owner.auth, MINI);
    const session = await openSession(ctx, owner.auth, order.id);
    const event = sandboxEvent(session.session_id, 'payment.succeeded');
    await refuse(owner.user.id, 'payment completed');

    expect((await sendSandboxEvent(ctx, event)).statusCode).toBe(500);
    expect(await ordersOf(owner.user.id)).toEqual(['AWAITING_PAYMENT']);

    // The event was not recorded either: the provider's next delivery is applied, not a duplicate.
    await allow(owner.user.id);
    expect((await sendSandboxEvent(ctx, event)).statusCode).toBe(200);
    expect(await ordersOf(owner.user.id)).toEqual(['PAID']);
    const entries = await ctx.database.executeSql(
      `select action from activity_events where account_id = $1 and action = 'payment completed'`,
      [owner.user.id],
    );
    expect(entries.rows).toHaveLength(1);
  });
});
