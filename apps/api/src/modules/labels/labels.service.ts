// Labels of a workspace, the owner's side (the contract's labels.ts): list, set and remove. A label
// changes nothing on the node, so it does not go through the workspace change pipeline: each change
// has its own transaction with its activity entry, and the service's generation stays where it is.
// Labels are the owner's bookkeeping, so they may be changed whatever the service's state (an
// expired workspace can still be found by its labels).
import {
  LABEL_LIMIT,
  labelKeySchema,
  setLabelRequestSchema,
  type Label,
  type LabelsResponse,
  type SetLabelRequest,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import { AppError } from '../../http/app-error.ts';
import type { ChangeMeta, RecordActivity, WorkspaceChanges } from '../workspace/workspace-change.ts';
import { createLabelsQueries, type LabelRow } from './labels.queries.ts';

export interface LabelsDeps {
  db: Db;
  changes: Pick<WorkspaceChanges, 'owned' | 'now'>;
  recordActivity: RecordActivity;
}

export function presentLabel(row: LabelRow): Label {
  return { key: row.key, value: row.value, updated_at: row.updatedAt.toISOString() };
}

export function createLabelsService(deps: LabelsDeps) {
  const queries = createLabelsQueries(deps.db);

  function record(
    tx: Tx,
    accountId: string,
    serviceId: string,
    meta: ChangeMeta,
    action: 'label set' | 'label removed',
    label: LabelRow,
  ) {
    return deps.recordActivity(tx, {
      accountId,
      serviceId,
      ip: meta.ip,
      action,
      tone: 'info',
      details: { key: label.key, value: label.value },
    });
  }

  return {
    async list(accountId: string, serviceId: string): Promise<LabelsResponse> {
      const service = await deps.changes.owned(accountId, serviceId);
      return { labels: (await queries.list(service.id)).map(presentLabel) };
    },

    /** Makes the label or replaces its value; the same value again changes and records nothing. */
    async set(
      accountId: string,
      serviceId: string,
      key: string,
      input: SetLabelRequest,
      meta: ChangeMeta,
    ): Promise<Label> {
      const name = labelKeySchema.parse(key);
      const { value } = setLabelRequestSchema.parse(input);
      const service = await deps.changes.owned(accountId, serviceId);
      const row = await inTransaction(deps.db, async (tx) => {
        const q = createLabelsQueries(tx);
        const existing = await q.find(service.id, name);
        if (existing?.value === value) return existing;
        // Two tabs adding the 20th and 21st at once may both pass: as with subusers, the limit
        // keeps a workspace's labels few, it guards nothing.
        if (!existing && (await q.count(service.id)) >= LABEL_LIMIT) throw new AppError('label_limit');
        const put = await q.put({
          serviceId: service.id,
          accountId,
          key: name,
          value,
          updatedAt: deps.changes.now(),
        });
        await record(tx, accountId, service.id, meta, 'label set', put);
        return put;
      });
      return presentLabel(row);
    },

    async remove(accountId: string, serviceId: string, key: string, meta: ChangeMeta): Promise<void> {
      const service = await deps.changes.owned(accountId, serviceId);
      await inTransaction(deps.db, async (tx) => {
        const removed = await createLabelsQueries(tx).remove(service.id, key);
        if (!removed) throw new AppError('label_not_found');
        await record(tx, accountId, service.id, meta, 'label removed', removed);
      });
    },
  };
}

export type LabelsService = ReturnType<typeof createLabelsService>;
