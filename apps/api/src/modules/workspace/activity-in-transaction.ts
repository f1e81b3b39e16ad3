// The change pipeline writes its activity entries inside the change's transaction.
// MERGE(i14-modules): the activity module is to record on a given transaction itself; until then
// this builds the activity service on the transaction's handle (same rows, same clock).
import { createActivityQueries } from '../activity/activity.queries.ts';
import { createActivityService } from '../activity/activity.service.ts';
import type { RecordActivity } from './workspace-change.ts';

export function activityInTransaction(now?: () => Date): RecordActivity {
  return (tx, entry) =>
    createActivityService({ queries: createActivityQueries(tx), ...(now ? { now } : {}) }).record(entry);
}
