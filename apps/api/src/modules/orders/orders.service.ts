// Orders: a customer's request to buy, priced once with the shared pricing function and the
// customer's VAT situation at that moment, then paid through a payment session.
import type { CreateOrderRequest, Order } from '@debesis/contract';
import { AppError, notFound } from '../../http/app-error.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { UsersQueries } from '../users/users.queries.ts';
import { presentOrder } from './orders.presenter.ts';
import type { OrderRow, OrdersQueries } from './orders.queries.ts';
import type { QuotesService } from './quotes.service.ts';
import type { ProductsService } from '../products/products.service.ts';

export function createOrdersService(deps: {
  queries: OrdersQueries;
  quotes: Pick<QuotesService, 'price'>;
  products: Pick<ProductsService, 'get'>;
  users: Pick<UsersQueries, 'findById'>;
  activity: Pick<ActivityService, 'record'>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  async function load(accountId: string, id: string): Promise<OrderRow> {
    const row = await deps.queries.findForAccount(accountId, id);
    if (!row) throw notFound();
    return row;
  }

  return {
    async create(
      accountId: string,
      request: CreateOrderRequest,
      meta: { ip: string | null },
    ): Promise<Order> {
      const user = await deps.users.findById(accountId);
      if (!user) throw notFound();
      // VAT follows the account: its country, and for a business its VAT number.
      const country = user.company?.country ?? user.country;
      if (!country) {
        throw new AppError('validation_error', {
          fieldErrors: [{ field: 'country', code: 'invalid_country' }],
        });
      }
      const isBusiness = user.accountType === 'business';
      const vatNumber = user.company?.vat_number ?? null;
      const breakdown = await deps.quotes.price(request, {
        country,
        isBusiness,
        vatNumber: vatNumber ?? undefined,
      });
      const product = await deps.products.get(breakdown.product_id);
      const row = await deps.queries.insert({
        accountId,
        kind: 'new',
        status: 'AWAITING_PAYMENT',
        productId: breakdown.product_id,
        productName: product.name,
        diskSpace: breakdown.disk_space,
        usersCount: breakdown.users_count,
        periodId: breakdown.period_id,
        months: breakdown.months,
        amountMinor: breakdown.total,
        vatRate: breakdown.vat_rate,
        breakdown,
        customer: { country, is_business: isBusiness, vat_number: vatNumber },
        createdAt: now(),
        updatedAt: now(),
      });
      await deps.activity.record({
        accountId,
        action: 'order created',
        tone: 'success',
        ip: meta.ip,
        details: { order_id: row.id, product_id: row.productId, amount: row.amountMinor },
      });
      return presentOrder(row);
    },

    async list(accountId: string): Promise<Order[]> {
      return (await deps.queries.listForAccount(accountId)).map(presentOrder);
    },

    async get(accountId: string, id: string): Promise<Order> {
      return presentOrder(await load(accountId, id));
    },

    /** The order a payment may be taken for: awaiting payment, or failed and reopened for a retry. */
    async payable(accountId: string, id: string, options: { reopenFailed: boolean }): Promise<OrderRow> {
      const row = await load(accountId, id);
      if (row.status === 'FAILED' && options.reopenFailed) {
        await deps.queries.reopen(row.id, now());
        return load(accountId, id);
      }
      if (row.status !== 'AWAITING_PAYMENT') throw new AppError('order_not_payable');
      return row;
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
