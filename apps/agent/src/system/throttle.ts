// A workspace's network link throttled once it has moved its plan's bandwidth for the month
// (desired state `bandwidth_throttled`): a token bucket (tc `tbf`) as the root qdisc of both ends
// of its veth pair, since a qdisc shapes only what leaves an interface: the node's end holds what
// goes into the workspace (clients' uploads), `ws0` inside its namespace what comes out (their
// downloads). Each keeps BANDWIDTH_THROTTLE_KBIT; nothing is dropped outright and nothing else of
// the workspace changes, so its storage stays served, only slower. Lifting it deletes both qdiscs
// (a veth has none by default).
import { BANDWIDTH_THROTTLE_KBIT } from '@debesis/contract';
import type { CommandRunner } from '../exec/run-command.ts';
import { WORKSPACE_INTERFACE, type NetworkNames } from './netns.ts';

/** Bucket size and queueing delay: a few full frames at once, a short queue beyond the rate. */
const TBF = ['rate', `${BANDWIDTH_THROTTLE_KBIT}kbit`, 'burst', '32kb', 'latency', '100ms'];

/** The two ends: `tc` arguments naming each (the workspace's through its namespace). */
function ends(names: NetworkNames): string[][] {
  return [
    ['qdisc', '%', 'dev', names.nodeInterface, 'root'],
    ['-n', names.netns, 'qdisc', '%', 'dev', WORKSPACE_INTERFACE, 'root'],
  ];
}

function command(end: string[], verb: string): string[] {
  return end.map((part) => (part === '%' ? verb : part));
}

/** Puts the token bucket on both ends (replacing whatever root qdisc is there). */
export async function throttleLink(names: NetworkNames, run: CommandRunner): Promise<void> {
  for (const end of ends(names))
    await run('tc', [...command(end, 'replace'), 'tbf', ...TBF], { check: true });
}

/** Takes it off both ends; an end without one is left as it is. */
export async function unthrottleLink(names: NetworkNames, run: CommandRunner): Promise<void> {
  for (const end of ends(names)) await run('tc', command(end, 'del'));
}
