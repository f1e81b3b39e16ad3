// What this host lets the agent do: whether it runs as root and which programs it has. Drivers
// ask before they try, so that "not live" comes with a reason instead of an error.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

export const isRoot = (): boolean => process.getuid?.() === 0;

// Debian keeps the admin programs (losetup, mkfs.ext4, ip) in sbin, which a non-login PATH may
// lack; the agent looks there too.
const EXTRA_PATHS = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Absolute path of an installed program, or undefined. A name with a slash is a path, taken as
 * it is (easy-rsa lives in /usr/share/easy-rsa, on no PATH).
 */
export async function findProgram(name: string): Promise<string | undefined> {
  const key = `${process.env.PATH ?? ''}\0${name}`;
  const known = programs.get(key);
  if (known && Date.now() - known.at < PROGRAM_LOOKUP_TTL_MS) return known.path;
  const path = await lookUp(name);
  programs.set(key, { path, at: Date.now() });
  return path;
}

/**
 * How long a lookup holds. Every driver asks for its programs on every pass, observe-only ones
 * too, and a lookup walks the PATH (a long one under npm) with a stat per folder: ~15 ms of a
 * 40 ms no-op pass. A program installed or removed is noticed within this time.
 */
export const PROGRAM_LOOKUP_TTL_MS = 30_000;
const programs = new Map<string, { path: string | undefined; at: number }>();

async function lookUp(name: string): Promise<string | undefined> {
  if (name.includes('/')) return (await isExecutableFile(name)) ? name : undefined;
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...EXTRA_PATHS];
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** The first of `names` that is not installed, or undefined when all are. */
export async function firstMissingProgram(names: readonly string[]): Promise<string | undefined> {
  for (const name of names) if (!(await findProgram(name))) return name;
  return undefined;
}

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
