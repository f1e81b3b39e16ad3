// The node's identity after registration, kept in `<dataDir>/node.json` (mode 0600: it holds
// the node token). It is tied to the API and node name it was issued for; when either changes
// the agent registers again instead of sending a token to the wrong place.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeIfChanged } from './fs/write-if-changed.ts';

const nodeIdentitySchema = z.object({
  node_id: z.string(),
  node_token: z.string().min(1),
  node_name: z.string(),
  api_url: z.string(),
  registered_at: z.string(),
});
export type NodeIdentity = z.infer<typeof nodeIdentitySchema>;

export const nodeIdentityPath = (dataDir: string): string => join(dataDir, 'node.json');

/** The stored identity, or undefined when there is none (or it is unreadable: register again). */
export async function loadNodeIdentity(dataDir: string): Promise<NodeIdentity | undefined> {
  let text: string;
  try {
    text = await readFile(nodeIdentityPath(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return nodeIdentitySchema.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

export async function saveNodeIdentity(dataDir: string, identity: NodeIdentity): Promise<void> {
  await writeIfChanged(nodeIdentityPath(dataDir), `${JSON.stringify(identity, null, 2)}\n`, { mode: 0o600 });
}
