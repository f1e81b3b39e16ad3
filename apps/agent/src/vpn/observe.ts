// What the VPN feature observes on every pass (the VPN definition's `report`): the server's
// sessions, each user's traffic this month, and the cut-offs that follow from them. A user over
// its traffic limit, disabled, or no longer among the workspace's VPN users has its sessions
// ended here, so the end follows within one pass of the reading or the change; the auth script
// refuses it at its next connect (over-limit list, users file), so it stays off.
//
// Cheap enough for the observe-only pass: no program runs, one or two conversations on the
// management socket and two small files. No server (its socket missing, nobody listening) means
// no sessions, not an error; a server that does not answer in time is one, and leaves the
// feature's section out of this report.
import type { Logger } from '../logger.ts';
import {
  WORKSPACE_NAME_PATTERN,
  type VpnSessionReport,
  type WorkspaceDesiredState,
  type WorkspaceFeatureReports,
} from '@debesis/contract';
import { exists } from '../system/host.ts';
import { disconnectUser, sessions as readSessions, type ManagementOptions } from './management.ts';
import { countUsage } from './usage.ts';

export interface VpnObserveOptions extends ManagementOptions {
  /** Default: the clock. */
  now?: Date;
  /** Where the ended sessions are said. */
  logger?: Logger;
}

/** The VPN section of the workspace report; `{}` when the workspace has no VPN. */
export async function observeVpn(
  desired: WorkspaceDesiredState,
  paths: { dir: string; socketPath: string },
  options: VpnObserveOptions = {},
): Promise<Partial<WorkspaceFeatureReports>> {
  const section = desired.vpn;
  if (!section) return {};
  // Nothing rendered yet: no server has run, nothing was counted, and nothing is made here.
  if (!(await exists(paths.dir))) return { vpn: { sessions: [], usage: [] } };

  const live = await readSessions(paths.socketPath, options);
  const { usage, overLimit } = await countUsage({
    dir: paths.dir,
    sessions: live,
    users: section.users,
    ...(options.now ? { now: options.now } : {}),
  });

  const why = new Map<string, string>(overLimit.map((name) => [name, 'over its traffic limit']));
  const users = new Map(section.users.map((user) => [user.name, user]));
  for (const session of live) {
    const user = users.get(session.user);
    if (!user) why.set(session.user, 'not a VPN user of the workspace');
    else if (!user.enabled) why.set(session.user, 'disabled');
  }
  const ended = new Set<string>();
  for (const name of new Set(live.map((session) => session.user))) {
    const reason = why.get(name);
    if (reason === undefined) continue;
    // Only the workspace's CA issues client certificates, and only to user names; a name that is
    // none cannot be sent as a command and is said instead.
    if (!WORKSPACE_NAME_PATTERN.test(name)) {
      options.logger?.warn(
        { service_id: desired.service_id },
        `VPN session of an unknown name left up: ${name}`,
      );
      continue;
    }
    const count = await disconnectUser(paths.socketPath, name, options);
    ended.add(name);
    if (count > 0)
      options.logger?.info(
        { service_id: desired.service_id, user: name },
        `ended ${count} VPN session(s) of ${name}: ${reason}`,
      );
  }

  const stillUp: VpnSessionReport[] = live.filter((session) => !ended.has(session.user));
  return { vpn: { sessions: stillUp.slice(0, 10_000), usage: usage.slice(0, 10_000) } };
}
