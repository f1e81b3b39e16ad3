// What operators' metrics may read of services (http/metrics.ts): counts, never rows.
import type { Db } from '../../db/database.ts';
import { createServicesQueries } from './services.queries.ts';

/** Services per status, and how many placed ones wait for their node to apply a change. */
export async function servicesByStatus(
  db: Db,
): Promise<{ byStatus: Array<{ status: string; count: number }>; changesPending: number }> {
  const rows = await createServicesQueries(db).countByStatus();
  return {
    byStatus: rows.map(({ status, count }) => ({ status, count })),
    changesPending: rows.reduce((total, row) => total + row.changesPending, 0),
  };
}
