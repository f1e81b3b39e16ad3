// The owner's services. The workspace issue adds placement, the lifecycle and live facts from
// the node; until a node reports, address, usage and uptime are unknown (null), not guessed.
import type { ServiceSummary } from '@debesis/contract';
import type { ServiceRow, ServicesQueries } from './services.queries.ts';

function summarise(row: ServiceRow, planName: string): ServiceSummary {
  return {
    id: row.id,
    order_id: row.orderId,
    name: row.name,
    plan: planName,
    status: row.status,
    valid_until: row.validUntil.toISOString(),
    ip_address: null,
    disk_space: row.diskSpace,
    disk_usage: null,
    file_usage: null,
    users_active: 0,
    users_total: row.usersCount,
    groups: 0,
    shares: 0,
    monthly_price: row.monthlyPriceMinor,
    uptime: null,
  };
}

export function createServicesService(deps: {
  queries: Pick<ServicesQueries, 'listForAccount'>;
  planName: (productId: string) => Promise<string>;
}) {
  return {
    async overview(accountId: string): Promise<{ services: ServiceSummary[] }> {
      const rows = await deps.queries.listForAccount(accountId);
      const names = new Map<string, string>();
      for (const row of rows) {
        if (!names.has(row.productId)) names.set(row.productId, await deps.planName(row.productId));
      }
      return { services: rows.map((row) => summarise(row, names.get(row.productId) ?? row.productId)) };
    },
  };
}

export type ServicesService = ReturnType<typeof createServicesService>;
