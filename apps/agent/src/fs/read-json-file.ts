// A file the agent wrote for itself (a record of what it made, a counter), read back: a file that
// is missing, unreadable or not what the schema says reads as nothing, and the caller starts anew
// as if it had never been written.
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';

export async function readJsonFile<T extends z.ZodType>(
  path: string,
  schema: T,
): Promise<z.infer<T> | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
