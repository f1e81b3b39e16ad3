// What the workspace module (the change pipeline, the desired state, the node reports) may do
// with service rows: the services module's own exported functions, so that no other module
// reads its queries or tables.
import type { Db } from '../../db/database.ts';
import { createServicesQueries, type ServicesQueries } from './services.queries.ts';

export type { ServiceRow, WorkspaceReportValues } from './services.queries.ts';

export type WorkspaceRows = Pick<
  ServicesQueries,
  | 'findById'
  | 'findForAccount'
  | 'listForAccount'
  | 'bumpGeneration'
  | 'listForNode'
  | 'recordReport'
  | 'touchReported'
  | 'activateApplied'
  | 'releaseRemoved'
  | 'insertEvent'
  | 'listActive'
>;

export function createWorkspaceRows(db: Db): WorkspaceRows {
  return createServicesQueries(db);
}
