// Keeps the workspace's tdbsam passdb equal to the desired users. What was imported last is kept
// as an smbpasswd file beside smb.conf; when the newly rendered one is the same, nothing runs.
// Otherwise: import the accounts whose line is new or changed since that record (adds and
// updates; all of them when there is no record or no passdb), delete accounts no longer wanted,
// and only then record the whole render, so an interrupted sync is simply done again on the next
// pass. The record is only as good as the import: pdbedit skips an account it cannot build (its
// Unix user missing in the namespace) and still exits 0, and a record that claims what the passdb
// lacks would make every later pass skip the account for good (a changed password that smbd
// never takes). So the same run lists the passdb afterwards, and the render is recorded only when
// the listing holds every account as rendered; otherwise the listing is recorded (the next pass
// imports what it lacks) and the sync fails with the accounts named. Importing only what changed is what keeps a new user quick: pdbedit's import costs
// ~15 ms per account, 3.6 s for 200 at load, of which the new user is one.
// pdbedit needs the Unix accounts, so it runs inside the workspace's namespace.
//
// Why it is one program run with TDB_NO_FSYNC and one fsync at the end: tdb syncs every
// transaction, and an import makes ~4 per account (824 fdatasync + msync for 200 users). On a busy
// disk that took 7 s for 200 users where the work itself is 0.4 s of CPU. The passdb is derived
// data, rebuilt from the desired state by the next pass, so per-account durability buys nothing;
// the file is synced once when the import is done and before the import is recorded. A process
// that dies midway leaves a consistent tdb (its transactions still commit in order), only not yet
// on disk. Each entry into the namespace also costs a mount-namespace set-up (~100 ms of CPU), so
// the import and the deletions share one.
import { readFile, rm } from 'node:fs/promises';
import type { CommandRunner } from '../exec/run-command.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { exists } from '../system/host.ts';
import { inWorkspaceNamespace } from '../system/namespace.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';

/**
 * Imports `$pending` (when not empty) into the passdb, deletes each named account that is still
 * there (one deleted by a sync that was cut short is not there any more), syncs the file, and
 * lists what it holds in smbpasswd format (its only output).
 * Names and paths arrive as positional arguments, never as shell text.
 */
export const PASSDB_SYNC_SCRIPT = `set -eu
conf=$1 pending=$2 passdb=$3
shift 3
if [ -n "$pending" ]; then pdbedit -s "$conf" -i "smbpasswd:$pending" -e "tdbsam:$passdb" >/dev/null; fi
for name; do
  if pdbedit -s "$conf" -u "$name" >/dev/null 2>&1; then pdbedit -s "$conf" -x -u "$name" >/dev/null; fi
done
if [ -e "$passdb" ]; then sync -- "$passdb"; pdbedit -s "$conf" -L -w; fi`;

/** The account names of an smbpasswd file (the first field of each line). */
function accountNames(smbpasswd: string): string[] {
  return smbpasswd
    .split('\n')
    .map((line) => line.split(':')[0] ?? '')
    .filter(Boolean);
}

export async function syncPassdb(
  layout: WorkspaceLayout,
  rendered: string,
  wantedUsers: readonly string[],
  run: CommandRunner,
): Promise<string[]> {
  const { samba } = layout;
  const recorded = await readFile(samba.passdbRecord, 'utf8').catch(() => undefined);
  const passdbExists = await exists(samba.passdb);
  if (recorded === rendered && passdbExists) return [];

  const inNamespace = (argv: string[]) => {
    const { command, args } = inWorkspaceNamespace(layout, ['env', 'TDB_NO_FSYNC=1', ...argv], [samba.dir]);
    return run(command, args, { check: true });
  };
  // The accounts the passdb holds: those of the last import; without a record of it (a sync cut
  // short before recording, a record deleted by hand) the passdb says itself.
  const known = recorded !== undefined && passdbExists;
  let present: string[] = [];
  if (known) present = accountNames(recorded);
  else if (passdbExists)
    present = accountNames((await inNamespace(['pdbedit', '-s', samba.conf, '-L'])).stdout);
  const wanted = new Set(wantedUsers);
  const removed = present.filter((name) => !wanted.has(name));
  const importing = known ? changedLines(recorded, rendered) : rendered;

  const pending = `${samba.passdbRecord}.pending`;
  if (importing !== '') await writeIfChanged(pending, importing, { mode: 0o600 });
  let holds = recorded ?? '';
  if (importing !== '' || removed.length > 0)
    holds = (
      await inNamespace([
        '/bin/sh',
        '-c',
        PASSDB_SYNC_SCRIPT,
        'debesis-passdb',
        samba.conf,
        importing === '' ? '' : pending,
        samba.passdb,
        ...removed,
      ])
    ).stdout;

  const missing = notHeld(rendered, holds);
  await writeIfChanged(samba.passdbRecord, missing.length === 0 ? rendered : holds, { mode: 0o600 });
  await rm(pending, { force: true });
  if (missing.length > 0)
    throw new Error(
      `the Samba passdb did not take the account of ${missing.join(', ')} (pdbedit skipped it)`,
    );
  const imported = accountNames(importing).length;
  return [
    ...(imported === 0 ? [] : [`imported ${imported} Samba accounts`]),
    ...removed.map((name) => `removed Samba account ${name}`),
  ];
}

/** One smbpasswd line as what signs in: the NT hash and the account flags (their letters, any order). */
function accountOf(line: string): string {
  const [, uid = '', , nt = '', flags = ''] = line.split(':');
  const letters = [...flags.replace(/[[\] ]/g, '')].sort().join('');
  return `${uid}:${nt.toUpperCase()}:${letters}`;
}

/** The names of the accounts `rendered` has that `listing` (pdbedit -L -w) lacks or holds otherwise. */
function notHeld(rendered: string, listing: string): string[] {
  const held = new Map(
    listing
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.split(':')[0] ?? '', accountOf(line)]),
  );
  return rendered
    .split('\n')
    .filter(Boolean)
    .filter((line) => held.get(line.split(':')[0] ?? '') !== accountOf(line))
    .map((line) => line.split(':')[0] ?? '');
}

/** The lines of `rendered` that `recorded` does not have as they are (new or changed accounts). */
function changedLines(recorded: string, rendered: string): string {
  const before = new Set(recorded.split('\n'));
  const lines = rendered.split('\n').filter((line) => line !== '' && !before.has(line));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
