// The mounts of the agent's own mount namespace, read from /proc/self/mountinfo (no program, so
// checking "is it mounted?" on every pass costs next to nothing).
import { readFile } from 'node:fs/promises';

export interface MountEntry {
  mountPoint: string;
  fsType: string;
  source: string;
  options: string;
}

// mountinfo escapes space, tab, newline and backslash as \ooo octal.
const unescape = (field: string) =>
  field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

export function parseMountInfo(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const fields = left.split(' ');
    const [fsType, source] = right.split(' ');
    const mountPoint = fields[4];
    if (!mountPoint || !fsType || source === undefined) continue;
    entries.push({
      mountPoint: unescape(mountPoint),
      fsType,
      source: unescape(source),
      options: fields[5] ?? '',
    });
  }
  return entries;
}

/** The topmost mount at exactly `path`, if any. */
export async function mountAt(path: string): Promise<MountEntry | undefined> {
  const entries = parseMountInfo(await readFile('/proc/self/mountinfo', 'utf8'));
  return entries.filter((entry) => entry.mountPoint === path).at(-1);
}
