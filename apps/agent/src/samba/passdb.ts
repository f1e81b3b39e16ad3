// Keeps the workspace's tdbsam passdb equal to the desired users. What was imported last is kept
// as an smbpasswd file beside smb.conf; when the newly rendered one is the same, nothing runs.
// Otherwise: import the new file (adds and updates), delete accounts no longer wanted, and only
// then record it, so an interrupted sync is simply done again on the next pass.
// pdbedit needs the Unix accounts, so it runs inside the workspace's namespace.
import { readFile, rename, rm } from 'node:fs/promises';
import type { CommandRunner } from '../exec/run-command.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { exists } from '../system/host.ts';
import { inWorkspaceNamespace } from '../system/namespace.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';

export async function syncPassdb(
  layout: WorkspaceLayout,
  rendered: string,
  wantedUsers: readonly string[],
  run: CommandRunner,
): Promise<string[]> {
  const { samba } = layout;
  const recorded = await readFile(samba.passdbRecord, 'utf8').catch(() => undefined);
  if (recorded === rendered && (await exists(samba.passdb))) return [];

  const pdbedit = async (args: string[]) => {
    const { command, args: full } = inWorkspaceNamespace(layout, ['pdbedit', '-s', samba.conf, ...args]);
    return run(command, full, { check: true });
  };
  const actions: string[] = [];
  const pending = `${samba.passdbRecord}.pending`;
  if (rendered !== '') {
    await writeIfChanged(pending, rendered, { mode: 0o600 });
    await pdbedit(['-i', `smbpasswd:${pending}`, '-e', `tdbsam:${samba.passdb}`]);
    actions.push(`imported ${wantedUsers.length} Samba accounts`);
  }
  const listed = await pdbedit(['-L']);
  const present = listed.stdout
    .split('\n')
    .map((line) => line.split(':')[0] ?? '')
    .filter(Boolean);
  const wanted = new Set(wantedUsers);
  for (const name of present.filter((n) => !wanted.has(n))) {
    await pdbedit(['-x', '-u', name]);
    actions.push(`removed Samba account ${name}`);
  }
  if (rendered !== '') await rename(pending, samba.passdbRecord);
  else {
    await writeIfChanged(samba.passdbRecord, rendered, { mode: 0o600 });
    await rm(pending, { force: true });
  }
  return actions;
}
