import type { Order } from '@debesis/contract';
import type { OrderRow } from './orders.queries.ts';

export function presentOrder(row: OrderRow): Order {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    product_id: row.productId,
    product_name: row.productName,
    service_id: row.serviceId,
    service_name: row.serviceName,
    disk_space: row.diskSpace,
    users_count: row.usersCount,
    period_id: row.periodId,
    amount: row.amountMinor,
    credit_applied: row.creditAppliedMinor,
    plan_change_id: row.planChangeId,
    currency: row.currency,
    breakdown: row.breakdown,
    error_message: row.errorMessage,
    error_details: row.errorDetails,
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
  };
}
