// The customer names the workspace at checkout: on the order, or when its payment opens; without a
// name the service is called after the plan, as before.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Order } from '@debesis/contract';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import { sandboxEvent, seedCatalogue, sendSandboxEvent } from '../../test/payments.ts';
import { services } from '../services/services.table.ts';

const PLAN = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '12m' };

describe('naming the workspace at checkout', () => {
  const ctx = useTestContext({}, seedCatalogue);

  async function order(auth: Record<string, string>, payload: object) {
    const created = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/orders/',
      headers: auth,
      payload,
    });
    return created;
  }

  /** Opens the payment (with `body`, if any), pays it, and gives the service it created. */
  async function payAndFindService(auth: Record<string, string>, orderId: string, body?: object) {
    const session = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/orders/${orderId}/process`,
      headers: auth,
      ...(body ? { payload: body } : {}),
    });
    expect(session.statusCode).toBe(200);
    await sendSandboxEvent(
      ctx,
      sandboxEvent(session.json<{ session_id: string }>().session_id, 'payment.succeeded'),
    );
    const [service] = await ctx.database.db.select().from(services).where(eq(services.orderId, orderId));
    return service;
  }

  it('gives the service the name the order was placed with', async () => {
    const { auth } = await signedInUser(ctx);
    const created = await order(auth, { ...PLAN, name: '  Komandos diskas ' });
    expect(created.statusCode).toBe(201);
    expect(created.json<Order>().service_name).toBe('Komandos diskas');
    expect((await payAndFindService(auth, created.json<Order>().id))?.name).toBe('Komandos diskas');
  });

  it('takes the name when the payment of an order made earlier opens', async () => {
    const { auth } = await signedInUser(ctx);
    const placed = (await order(auth, PLAN)).json<Order>();
    expect(placed.service_name).toBeNull();
    expect((await payAndFindService(auth, placed.id, { name: 'Archyvas' }))?.name).toBe('Archyvas');
  });

  it('keeps today’s default without a name, and refuses an unusable one', async () => {
    const { auth } = await signedInUser(ctx);
    const placed = (await order(auth, PLAN)).json<Order>();
    expect((await payAndFindService(auth, placed.id))?.name).toBe(`MINI ${placed.id.slice(0, 8)}`);

    const tooLong = await order(auth, { ...PLAN, name: 'x'.repeat(81) });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json()).toMatchObject({ errors: [{ field: 'name', code: 'too_long' }] });
  });
});
