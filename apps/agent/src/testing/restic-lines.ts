// Lines as `restic ls --json` prints them, for the tests of what reads them.

/** The modification time every test node has. */
export const RESTIC_MTIME = '2026-11-28T12:12:22.738289327Z';

/** A node (file or folder) line, as restic 0.14 prints it; `extra` adds or replaces fields. */
export const resticNodeLine = (path: string, type: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    name: path.split('/').at(-1),
    type,
    path,
    uid: 1000001,
    gid: 1000000,
    mode: 420,
    mtime: RESTIC_MTIME,
    struct_type: 'node',
    ...extra,
  });
