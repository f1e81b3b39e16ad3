// Checking a rendered config file before it is written, for every renderer. The file is its
// head (the global part) and one part per resource (a share); when the check command refuses the
// whole, the head is checked alone (refused: the feature fails, nothing is written), then the
// resources are bisected, so one bad share among fifty costs about a dozen checks instead of
// fifty, and the ones the command refuses on their own are left out as failures with its words.
// An unchanged rendering is not checked at all: the file on disk already passed.
import { readFile, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ResourceFailure } from '@debesis/contract';
import type { CommandRunner } from '../exec/run-command.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import type { ConfigCheck, RenderedConfig, RenderedResource } from './definition.ts';

/** The file's text with these resources: head, then each part, a blank line between. */
export function joinConfig(head: string, resources: readonly RenderedResource[]): string {
  return [head, ...resources.map((resource) => resource.text)].join('\n');
}

/** The check's complaint about `text`, or undefined when it accepts it (or cannot run here). */
export async function configComplaint(
  text: string,
  candidate: string,
  check: ConfigCheck,
  run: CommandRunner,
  mode: number,
): Promise<string | undefined> {
  await writeIfChanged(candidate, text, { mode });
  const [command, ...args] = check.argv(candidate);
  if (!command) throw new Error('a config check needs a command');
  const result = await run(command, args);
  // Without the checking program (render-only hosts) the file is written unchecked; the
  // driver's status already says the host lacks programs.
  if (result.missing) return undefined;
  const said = check.reportsOn === 'stdout' ? result.stdout : result.stderr;
  const complaint = check.complaint
    ? said
        .split('\n')
        .filter((line) => check.complaint!.test(line))
        .join('; ')
    : '';
  if (result.ok && !complaint) return undefined;
  return (
    complaint || said.trim().split('\n').slice(-3).join('; ') || `${command} exited with ${result.exitCode}`
  );
}

export interface CheckedConfig {
  /** What to write: every resource the check accepts. */
  text: string;
  failures: ResourceFailure[];
}

/**
 * The text to write for `file`: the current file's when the rendering is unchanged (nothing
 * runs), else the rendering once its check accepts it, leaving out the resources it refuses.
 * Throws when the head alone is refused.
 */
export async function checkRenderedConfig(file: RenderedConfig, run: CommandRunner): Promise<CheckedConfig> {
  const resources = file.resources ?? [];
  const full = joinConfig(file.head, resources);
  const current = await readFile(file.path, 'utf8').catch(() => undefined);
  if (current === full || !file.check) return { text: full, failures: [] };

  const check = file.check;
  const program = check.argv(file.path)[0] ?? 'the check';
  const refused = (problem: string) => new Error(`${program} refused ${basename(file.path)}: ${problem}`);
  const candidate = `${file.path}.candidate`;
  const complaint = (list: readonly RenderedResource[]) =>
    configComplaint(joinConfig(file.head, list), candidate, check, run, file.mode);
  try {
    const fullProblem = await complaint(resources);
    if (fullProblem === undefined) return { text: full, failures: [] };
    const headProblem = await complaint([]);
    if (headProblem !== undefined) throw refused(headProblem);

    const accepted: RenderedResource[] = [];
    const failures: ResourceFailure[] = [];
    // `group` is known to be refused as a whole: split it until each refused part is one resource.
    const bisect = async (group: readonly RenderedResource[], problem: string): Promise<void> => {
      if (group.length === 1) {
        const [resource] = group as [RenderedResource];
        failures.push({
          kind: resource.kind,
          name: resource.name,
          error: `${program}: ${problem}`.slice(0, 1000),
        });
        return;
      }
      const middle = Math.ceil(group.length / 2);
      const [first, second] = [group.slice(0, middle), group.slice(middle)];
      const firstProblem = await complaint(first);
      if (firstProblem === undefined) {
        // The group was refused and its first half is not: the second half is, without a check.
        accepted.push(...first);
        await bisect(second, problem);
        return;
      }
      await bisect(first, firstProblem);
      const secondProblem = await complaint(second);
      if (secondProblem === undefined) accepted.push(...second);
      else await bisect(second, secondProblem);
    };
    await bisect(resources, fullProblem);
    // Parts accepted apart may still clash together (two with the same path): then the whole
    // feature fails rather than write what its check refuses.
    const kept = resources.filter((resource) => accepted.includes(resource));
    const together = await complaint(kept);
    if (together !== undefined) throw refused(together);
    return { text: joinConfig(file.head, kept), failures };
  } finally {
    await rm(candidate, { force: true });
  }
}
