// Clean-up for live tests: whatever a test got to, its workspaces' network namespaces, veths and
// the guard routes of the pool it gave the agent, and their guard rules and tables (a rule
// outlives its veth) are gone afterwards.
import { runCommand } from '../exec/run-command.ts';
import { networkNames, networkPresent, removeGuard, removePoolGuards } from '../system/netns.ts';

export async function removeTestNetworks(
  serviceIds: readonly string[],
  pool: readonly string[],
): Promise<void> {
  for (const id of serviceIds) {
    const names = networkNames(id);
    const present = await networkPresent(names);
    if (present.link) await runCommand('ip', ['link', 'del', names.nodeInterface]);
    if (present.netns) await runCommand('ip', ['netns', 'del', names.netns]);
    await removeGuard(names, runCommand);
  }
  await removePoolGuards(pool, runCommand);
}
