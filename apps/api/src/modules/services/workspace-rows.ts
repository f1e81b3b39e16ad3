// What the workspace module (the change pipeline, the desired state, the node reports) may do
// with service rows: the services module's own exported functions, so that no other module
// reads its queries or tables.
import type { Db } from '../../db/database.ts';
import { createServicesQueries } from './services.queries.ts';

export type { ServiceRow, WorkspaceReportValues } from './services.queries.ts';

export function createWorkspaceRows(db: Db) {
  const queries = createServicesQueries(db);
  return {
    findForAccount: queries.findForAccount,
    bumpGeneration: queries.bumpGeneration,
    listForNode: queries.listForNode,
    recordReport: queries.recordReport,
    touchReported: queries.touchReported,
    activateApplied: queries.activateApplied,
    releaseRemoved: queries.releaseRemoved,
    insertEvent: queries.insertEvent,
  };
}

export type WorkspaceRows = ReturnType<typeof createWorkspaceRows>;
