import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandRunner } from '../exec/run-command.ts';
import { commandResult } from '../testing/command-result.ts';
import { checkRenderedConfig, joinConfig } from './config-check.ts';
import type { RenderedConfig, RenderedResource } from './definition.ts';

let dir: string;
let checked: string[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'config-check-'));
  checked = [];
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// A checker that refuses any text holding "BAD" (exit 1 with its line) or warns about "WARN" on
// stderr with exit 0, as testparm does for an unknown parameter.
const checker =
  (options: { missing?: boolean } = {}): CommandRunner =>
  async (command, args) => {
    const text = await readFile(args.at(-1)!, 'utf8');
    checked.push(text);
    const bad = text.split('\n').filter((line) => line.includes('BAD'));
    const warned = text.split('\n').filter((line) => line.includes('WARN'));
    const refuses = bad.length > 0;
    return commandResult(command, args, {
      exitCode: refuses ? 1 : 0,
      stderr: [...bad.map((l) => `error: ${l}`), ...warned.map((l) => `Unknown parameter ${l}`)].join('\n'),
      missing: options.missing ?? false,
    });
  };

const resources = (names: string[]): RenderedResource[] =>
  names.map((name) => ({ kind: 'share', name, text: `[${name}]\n` }));

const file = (parts: RenderedResource[], head = '[global]\n'): RenderedConfig => ({
  path: join(dir, 'x.conf'),
  mode: 0o644,
  head,
  resources: parts,
  check: { argv: (candidate) => ['checkconf', candidate], complaint: /error|unknown parameter/i },
});

describe('checkRenderedConfig (the per-resource check every renderer uses)', () => {
  it('accepts a good file with one check and leaves no candidate behind', async () => {
    const result = await checkRenderedConfig(file(resources(['a', 'b'])), checker());
    expect(result).toEqual({ text: '[global]\n\n[a]\n\n[b]\n', failures: [] });
    expect(checked).toHaveLength(1);
    await expect(readFile(join(dir, 'x.conf.candidate'))).rejects.toThrow();
  });

  it('runs nothing when the rendering equals the file on disk', async () => {
    const config = file(resources(['a']));
    await writeFile(config.path, joinConfig(config.head, config.resources!));
    expect((await checkRenderedConfig(config, checker())).failures).toEqual([]);
    expect(checked).toEqual([]);
  });

  it('bisects: the bad resources among many are left out with the check’s words, in far fewer checks than one each', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `s${i}`);
    const parts = resources(names).map((part) =>
      part.name === 's7' || part.name === 's30'
        ? { ...part, text: `[${part.name}]\nBAD ${part.name}\n` }
        : part,
    );
    const result = await checkRenderedConfig(file(parts), checker());
    expect(result.failures).toEqual([
      { kind: 'share', name: 's7', error: 'checkconf: error: BAD s7' },
      { kind: 'share', name: 's30', error: 'checkconf: error: BAD s30' },
    ]);
    expect(result.text).toContain('[s8]');
    expect(result.text).not.toContain('BAD');
    expect(result.text.match(/^\[s\d+\]$/gm)).toHaveLength(38);
    // Checking each alone, as before, took one check per resource plus the whole and the head.
    expect(checked.length).toBeLessThan(names.length);
  });

  it('takes a warning on stderr with exit 0 as a refusal (testparm’s unknown parameter)', async () => {
    const parts = resources(['a', 'b']).map((part) =>
      part.name === 'b' ? { ...part, text: '[b]\nWARN bogus = 1\n' } : part,
    );
    const result = await checkRenderedConfig(file(parts), checker());
    expect(result.failures.map((f) => f.name)).toEqual(['b']);
  });

  it('fails the whole file when the head alone is refused', async () => {
    await expect(checkRenderedConfig(file(resources(['a']), '[global]\nBAD\n'), checker())).rejects.toThrow(
      'checkconf refused x.conf: error: BAD',
    );
  });

  it('writes unchecked where the checking program is missing', async () => {
    const parts = resources(['a']).map((part) => ({ ...part, text: '[a]\nBAD\n' }));
    const result = await checkRenderedConfig(file(parts), checker({ missing: true }));
    expect(result).toEqual({ text: '[global]\n\n[a]\nBAD\n', failures: [] });
  });
});
