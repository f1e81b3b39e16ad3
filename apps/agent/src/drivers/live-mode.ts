// Whether a driver may touch the host for real (mount, add addresses, start daemons), and if not,
// why. Every live driver asks the same questions in the same order, so the reasons read alike.
import { firstMissingProgram, isRoot } from '../system/host.ts';

export interface LiveDriverOptions {
  /**
   * False renders and checks everything but mounts, aliases and starts nothing
   * (AGENT_LIVE_WORKSPACES=off, for test runs of the whole product). Default true.
   */
  live?: boolean;
}

export async function notLiveReason(
  options: LiveDriverOptions,
  programs: readonly string[],
): Promise<string | undefined> {
  if (options.live === false) return 'live workspaces are switched off (AGENT_LIVE_WORKSPACES=off)';
  if (!isRoot()) return 'the agent does not run as root';
  const missing = await firstMissingProgram(programs);
  if (missing) return `${missing} is not installed`;
  return undefined;
}
