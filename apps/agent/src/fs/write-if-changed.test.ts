import { mkdir, readdir, readFile, stat, symlink, utimes, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFilesIfChanged, writeIfChanged } from './write-if-changed.ts';
import { useTempDir } from '../testing/temp-dir.ts';

const dir = useTempDir('agent-wic-');

const modeOf = async (path: string) => (await stat(path)).mode & 0o7777;

describe('writeIfChanged', () => {
  it('creates a missing file with the given mode', async () => {
    const path = join(dir(), 'smb.conf');
    const result = await writeIfChanged(path, '[global]\n', { mode: 0o640 });
    expect(result).toEqual({ changed: true, content: true, mode: true, owner: false });
    expect(await readFile(path, 'utf8')).toBe('[global]\n');
    expect(await modeOf(path)).toBe(0o640);
  });

  it('does not write at all when content and mode are the same (mtime untouched)', async () => {
    const path = join(dir(), 'a.conf');
    await writeIfChanged(path, 'same', { mode: 0o600 });
    const past = new Date('2020-01-01T00:00:00Z');
    await utimes(path, past, past);
    const before = await stat(path);

    const result = await writeIfChanged(path, Buffer.from('same'), { mode: 0o600 });

    expect(result.changed).toBe(false);
    const after = await stat(path);
    expect(after.mtimeMs).toBe(past.getTime());
    expect(after.ino).toBe(before.ino);
  });

  it('detects and fixes a mode change without rewriting the content', async () => {
    const path = join(dir(), 'b.conf');
    await writeIfChanged(path, 'x', { mode: 0o600 });
    await chmod(path, 0o666);
    const before = await stat(path);

    const result = await writeIfChanged(path, 'x', { mode: 0o600 });

    expect(result).toEqual({ changed: true, content: false, mode: true, owner: false });
    expect(await modeOf(path)).toBe(0o600);
    expect((await stat(path)).ino).toBe(before.ino);
  });

  it('replaces changed content atomically: a new file renamed over the old, no temporary left', async () => {
    const path = join(dir(), 'c.conf');
    await writeFile(path, 'old');
    const before = await stat(path);

    const result = await writeIfChanged(path, 'new content', { mode: 0o644 });

    expect(result.content).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('new content');
    // A rename installs a new inode; an in-place rewrite would keep the old one (and could be read half-written).
    expect((await stat(path)).ino).not.toBe(before.ino);
    expect(await readdir(dir())).toEqual(['c.conf']);
  });

  it('removes what an agent killed mid-write left of the file (its temporary) when it writes it next', async () => {
    const path = join(dir(), 'd.conf');
    await writeFile(path, 'old');
    await writeFile(join(dir(), '.d.conf.999999.0a1b2c3d4e5f.tmp'), 'half a new con');
    await writeFile(join(dir(), '.other.conf.999999.0a1b2c3d4e5f.tmp'), 'not ours');

    await writeIfChanged(path, 'new content', { mode: 0o644 });

    expect(await readFile(path, 'utf8')).toBe('new content');
    expect((await readdir(dir())).sort()).toEqual(['.other.conf.999999.0a1b2c3d4e5f.tmp', 'd.conf']);
  });

  it('replaces a symlink instead of writing through it', async () => {
    const target = join(dir(), 'target');
    await writeFile(target, 'precious');
    const path = join(dir(), 'link.conf');
    await symlink(target, path);

    await writeIfChanged(path, 'precious');

    expect(await readFile(target, 'utf8')).toBe('precious');
    expect((await stat(path)).isFile()).toBe(true);
    expect(await readFile(path, 'utf8')).toBe('precious');
  });

  it('refuses to replace a folder and leaves no temporary behind on failure', async () => {
    await expect(writeIfChanged(dir(), 'x')).rejects.toThrow(/is a directory/);
    await expect(writeIfChanged(join(dir(), 'missing', 'f'), 'x')).rejects.toThrow(/ENOENT/);
    expect(await readdir(dir())).toEqual([]);
  });

  it('ignores the owner when not running as root and sets it when root', async () => {
    const path = join(dir(), 'd.conf');
    const uid = process.getuid?.() ?? 0;
    const gid = process.getgid?.() ?? 0;
    await writeIfChanged(path, 'x', { uid, gid });
    expect((await writeIfChanged(path, 'x', { uid, gid })).changed).toBe(false);
    if (uid === 0) {
      const result = await writeIfChanged(path, 'x', { uid: 1234, gid: 1234 });
      expect(result).toEqual({ changed: true, content: false, mode: false, owner: true });
      expect((await stat(path)).uid).toBe(1234);
    }
  });
});

describe('writeFilesIfChanged', () => {
  it('flushes each folder it renamed a file in once, after every file is in place', async () => {
    await mkdir(join(dir(), 'ganesha'));
    await writeFile(join(dir(), 'ganesha', 'same.conf'), 'same');
    const flushed: Array<{ dir: string; files: string[] }> = [];
    const flush = async (folder: string) => {
      flushed.push({ dir: folder, files: (await readdir(folder)).sort() });
    };

    const results = await writeFilesIfChanged(
      [
        { path: join(dir(), 'smb.conf'), data: 'a' },
        { path: join(dir(), 'shares.conf'), data: 'b', options: { mode: 0o600 } },
        { path: join(dir(), 'ganesha', 'same.conf'), data: 'same', options: { mode: 0o644 } },
        { path: join(dir(), 'ganesha', 'new.conf'), data: 'c' },
      ],
      flush,
    );

    expect(results.map((result) => result.content)).toEqual([true, true, false, true]);
    expect(flushed).toEqual([
      { dir: dir(), files: ['ganesha', 'shares.conf', 'smb.conf'] },
      { dir: join(dir(), 'ganesha'), files: ['new.conf', 'same.conf'] },
    ]);
    expect(await modeOf(join(dir(), 'shares.conf'))).toBe(0o600);
  });

  it('flushes nothing when nothing was renamed, and what it renamed before a failure', async () => {
    const flushed: string[] = [];
    const flush = (folder: string) => Promise.resolve(void flushed.push(folder));
    await writeFile(join(dir(), 'a.conf'), 'a');
    await writeFilesIfChanged([{ path: join(dir(), 'a.conf'), data: 'a' }], flush);
    expect(flushed).toEqual([]);

    const failing = writeFilesIfChanged(
      [
        { path: join(dir(), 'a.conf'), data: 'new' },
        { path: join(dir(), 'missing', 'b.conf'), data: 'b' },
      ],
      flush,
    );
    await expect(failing).rejects.toThrow(/ENOENT/);
    expect(flushed).toEqual([dir()]);
  });
});
