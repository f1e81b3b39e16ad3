// The drivers the agent runs, in order. For a running or stopped workspace they run first to
// last (later drivers build on earlier ones: the folder, then users, then the daemons); for a
// removed one, last to first (stop the daemons before deleting the folder under them).
// Later issues add their driver here.
import type { Driver } from './driver.ts';
import { workspaceDirDriver } from './workspace-dir.driver.ts';

export const DEFAULT_DRIVERS: readonly Driver[] = [workspaceDirDriver];
