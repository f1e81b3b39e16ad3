// A workspace's part of a pass for monitoring (issue 21): what its daemons recorded since the last
// pass (each driver's `activity`: new log lines past a cursor), what changed in the sessions and
// jobs its features report (session-events.ts), gathered in its spool first and only then the
// cursors moved on; then the oldest spooled events and the per-user usage go with the report as
// `features.monitoring`. Once the API has taken the report, `ack` drops the events it carried.
// A workspace being removed reports nothing of the kind.
import {
  ACTIVITY_EVENTS_PER_REPORT,
  type MonitoringReport,
  type WorkspaceDesiredState,
  type WorkspaceReport,
} from '@debesis/contract';
import { mkdir } from 'node:fs/promises';
import type { Driver, DriverContext } from '../drivers/driver.ts';
import { errorMessage, type Logger } from '../logger.ts';
import { monitoringDir, seenFile, spoolFile } from './monitoring-files.ts';
import { readSeen, sessionEvents, writeSeen } from './session-events.ts';
import { openSpool } from './spool.ts';
import type { UsageCounter } from './usage-count.ts';

export interface Collected {
  report: WorkspaceReport;
  /** Drops the events the report carried: call once the API has taken it. */
  ack: () => Promise<void>;
}

export async function collectActivity(
  deps: { drivers: readonly Driver[]; logger: Logger; usage?: UsageCounter; now?: () => Date },
  desired: WorkspaceDesiredState,
  report: WorkspaceReport,
  context: DriverContext,
): Promise<Collected> {
  const none = { report, ack: async () => undefined };
  if (desired.state === 'removed') return none;
  const { workspaceDir } = context;
  const log = (error: unknown, what: string) =>
    deps.logger.warn({ service_id: desired.service_id }, `${what}: ${errorMessage(error)}`);
  const spool = openSpool(spoolFile(workspaceDir), (dropped) =>
    deps.logger.warn(
      { service_id: desired.service_id, dropped },
      'activity spool full: oldest events dropped',
    ),
  );
  try {
    // Never the workspace's folder itself: one that is gone is for its drivers to make again.
    await mkdir(monitoringDir(workspaceDir), { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return none;
  }

  const dirty: string[] = [];
  for (const driver of deps.drivers) {
    if (!driver.activity) continue;
    try {
      const batch = await driver.activity(desired, context);
      await spool.append(batch.events);
      await batch.commit();
      for (const event of batch.events) {
        if (event.path) dirty.push(event.path);
        if (event.target) dirty.push(event.target);
      }
    } catch (error) {
      log(error, `${driver.name} activity`);
    }
  }
  if (report.features) {
    try {
      const seen = await readSeen(seenFile(workspaceDir));
      const changed = sessionEvents(seen, report.features, (deps.now ?? (() => new Date()))());
      await spool.append(changed.events);
      await writeSeen(seenFile(workspaceDir), changed.seen);
    } catch (error) {
      log(error, 'session events');
    }
  }

  let events: MonitoringReport['events'] = [];
  try {
    events = await spool.peek(ACTIVITY_EVENTS_PER_REPORT);
  } catch (error) {
    log(error, 'activity spool');
  }
  const usage = deps.usage?.update(desired, workspaceDir, dirty);
  // Nothing to say: the report stays as it was (and as small).
  if (events.length === 0 && !usage) return none;
  const monitoring: MonitoringReport = { events, ...(usage ? { usage } : {}) };
  return {
    report: { ...report, features: { ...report.features, monitoring } },
    ack: async () => {
      await spool.drop(events.length);
      if (usage) deps.usage?.sent(desired.service_id, usage);
    },
  };
}
