// The change pipeline writes its activity entries inside the change's transaction: the activity
// service records on the `Tx` it is given.
import type { ActivityService } from '../activity/activity.service.ts';
import type { RecordActivity } from './workspace-change.ts';

export function activityInTransaction(activity: Pick<ActivityService, 'record'>): RecordActivity {
  return (tx, entry) => activity.record(entry, tx);
}
