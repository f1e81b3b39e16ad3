// The services module's in-transaction port: what work spanning modules (paying an order,
// changing a plan) does to a service inside its own transaction. The API and the worker (the
// retry of plan changes waiting for room) use the same one.
import type { Tx } from '../../db/transaction.ts';
import { createServicesQueries, type ServicesQueries } from './services.queries.ts';

export const servicesInTransaction = {
  createForOrder: (tx: Tx, values: Parameters<ServicesQueries['createForOrder']>[0]) =>
    createServicesQueries(tx).createForOrder(values),
  extend: (tx: Tx, ...args: Parameters<ServicesQueries['extend']>) =>
    createServicesQueries(tx).extend(...args),
  changePlan: (tx: Tx, ...args: Parameters<ServicesQueries['changePlan']>) =>
    createServicesQueries(tx).changePlan(...args),
};
