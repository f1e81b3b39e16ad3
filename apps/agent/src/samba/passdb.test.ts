import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandRunner } from '../exec/run-command.ts';
import { commandResult } from '../testing/command-result.ts';
import { workspaceLayout, type WorkspaceLayout } from '../workspace-layout.ts';
import { PASSDB_SYNC_SCRIPT, syncPassdb } from './passdb.ts';

let dir: string;
let layout: WorkspaceLayout;
let calls: string[][];
/** What the fake `pdbedit -L` lists. */
let listed = '';
/** The fake passdb the sync script imports into and lists: name → smbpasswd line. */
let passdb: Map<string, string>;
/** Names the fake pdbedit skips on import, as it does an account whose Unix user is missing. */
let skipped: Set<string>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-passdb-'));
  layout = workspaceLayout(join(dir, 'workspaces', 'w'));
  await mkdir(layout.samba.privateDir, { recursive: true });
  calls = [];
  listed = '';
  passdb = new Map();
  skipped = new Set();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Runs no program: records each command line after the namespace script's own arguments, and
// plays the sync script on the fake passdb (import, delete, list).
const fakeRun: CommandRunner = async (command, args) => {
  const inside = args.slice(args.indexOf('env'));
  calls.push(command === 'nsenter' ? inside : [command, ...args]);
  let stdout = inside.includes('-L') ? listed : '';
  if (inside.includes(PASSDB_SYNC_SCRIPT)) {
    const { pending, removed } = scriptRun(inside);
    const lines = pending ? (await readFile(pending, 'utf8')).split('\n').filter(Boolean) : [];
    for (const text of lines) {
      const name = text.split(':')[0] ?? '';
      if (!skipped.has(name)) passdb.set(name, text);
    }
    for (const name of removed) passdb.delete(name);
    stdout = [...passdb.values()].map((text) => `${text}\n`).join('');
  }
  return commandResult(command, args, { stdout });
};

const line = (name: string) =>
  `${name}:1000001:${'X'.repeat(32)}:${'A'.repeat(32)}:[U          ]:LCT-65920080:\n`;
/** The accounts a sync script run is given to import (its file) and to delete (its names). */
const scriptRun = (call: string[]) => {
  const at = call.indexOf(PASSDB_SYNC_SCRIPT);
  return { pending: call[at + 3], removed: call.slice(at + 5) };
};

/** A passdb that an earlier sync filled with `text` and recorded. */
async function importedBefore(text: string) {
  await writeFile(layout.samba.passdbRecord, text);
  await writeFile(layout.samba.passdb, 'tdb');
  for (const entry of text.split('\n').filter(Boolean)) passdb.set(entry.split(':')[0] ?? '', entry);
}

describe('syncPassdb', () => {
  it('imports into a new passdb in one run of the namespace, without syncing every transaction', async () => {
    const actions = await syncPassdb(layout, line('alice') + line('bob'), ['alice', 'bob'], fakeRun);

    expect(calls).toHaveLength(1);
    expect(calls[0]!.slice(0, 2)).toEqual(['env', 'TDB_NO_FSYNC=1']);
    expect(scriptRun(calls[0]!)).toEqual({ pending: `${layout.samba.passdbRecord}.pending`, removed: [] });
    expect(actions).toEqual(['imported 2 Samba accounts']);
    expect(await readFile(layout.samba.passdbRecord, 'utf8')).toBe(line('alice') + line('bob'));
  });

  it('runs nothing when the accounts are what was imported last', async () => {
    await importedBefore(line('alice'));

    expect(await syncPassdb(layout, line('alice'), ['alice'], fakeRun)).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('deletes the accounts of the last import that are no longer wanted, in the same run', async () => {
    await importedBefore(line('alice') + line('bob'));

    const actions = await syncPassdb(layout, line('alice'), ['alice'], fakeRun);

    expect(calls).toHaveLength(1);
    // alice is in the passdb as recorded: nothing to import.
    expect(scriptRun(calls[0]!)).toEqual({ pending: '', removed: ['bob'] });
    expect(actions).toEqual(['removed Samba account bob']);
    expect(await readFile(layout.samba.passdbRecord, 'utf8')).toBe(line('alice'));
  });

  it('imports only the accounts that are new or changed since the recorded import', async () => {
    const changed = line('bob').replace('[U          ]', '[UD         ]');
    await importedBefore(line('alice') + line('bob'));
    let imported = '';
    const run: CommandRunner = async (command, args) => {
      const pending = scriptRun(args.slice(args.indexOf('env'))).pending;
      if (pending) imported = await readFile(pending, 'utf8');
      return fakeRun(command, args);
    };

    const actions = await syncPassdb(
      layout,
      line('alice') + changed + line('carol'),
      ['alice', 'bob', 'carol'],
      run,
    );

    expect(imported).toBe(changed + line('carol'));
    expect(actions).toEqual(['imported 2 Samba accounts']);
    expect(await readFile(layout.samba.passdbRecord, 'utf8')).toBe(line('alice') + changed + line('carol'));
    expect(await readdir(layout.samba.dir)).not.toContain('smbpasswd.pending');
  });

  it('asks the passdb what it holds when no import was recorded (a sync cut short)', async () => {
    await writeFile(layout.samba.passdb, 'tdb');
    listed = 'alice:1000001:\ncarol:1000003:\n';

    await syncPassdb(layout, line('alice'), ['alice'], fakeRun);

    expect(calls).toHaveLength(2);
    expect(calls[0]).toContain('-L');
    expect(scriptRun(calls[1]!).removed).toEqual(['carol']);
  });

  it('records what the passdb holds and fails, naming the account, when pdbedit skipped one', async () => {
    await importedBefore(line('alice'));
    const changed = line('alice').replace('A'.repeat(32), 'B'.repeat(32));
    skipped.add('alice');

    await expect(syncPassdb(layout, changed + line('bob'), ['alice', 'bob'], fakeRun)).rejects.toThrow(
      'the Samba passdb did not take the account of alice',
    );
    // The record says what the passdb has, not what was asked: the next pass imports alice again.
    expect(await readFile(layout.samba.passdbRecord, 'utf8')).toBe(line('alice') + line('bob'));

    skipped.clear();
    calls = [];
    expect(await syncPassdb(layout, changed + line('bob'), ['alice', 'bob'], fakeRun)).toEqual([
      'imported 1 Samba accounts',
    ]);
    expect(passdb.get('alice')).toBe(changed.trim());
    expect(await readFile(layout.samba.passdbRecord, 'utf8')).toBe(changed + line('bob'));
  });

  it('with no users left, deletes every account and records the empty list', async () => {
    await importedBefore(line('alice'));

    await syncPassdb(layout, '', [], fakeRun);

    expect(scriptRun(calls[0]!)).toEqual({ pending: '', removed: ['alice'] });
    expect(await readFile(layout.samba.passdbRecord, 'utf8')).toBe('');
  });
});
