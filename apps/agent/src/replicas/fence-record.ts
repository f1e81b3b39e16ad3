// What the fence must stop survives an agent restart: the daemons outlive the agent, so an agent
// restarted while cut off from the API would otherwise hold nothing to fence while they still
// serve. After every pass that reached the API the workspaces a run-out lease would stop (as last
// applied) are written to `<dataDir>/fence.json` (0600, beside node.json: a desired state holds
// nothing the workspace's own folder does not); a starting agent fences them from there until its
// first pass brings the API's word.
import { join } from 'node:path';
import { workspaceDesiredStateSchema, type WorkspaceDesiredState } from '@debesis/contract';
import { z } from 'zod';
import { readJsonFile } from '../fs/read-json-file.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { toFence } from './fence.ts';

const recordFile = (dataDir: string) => join(dataDir, 'fence.json');
const recordSchema = z.object({ workspaces: z.array(workspaceDesiredStateSchema) });

export async function saveFenceRecord(
  dataDir: string,
  applied: Iterable<WorkspaceDesiredState>,
): Promise<void> {
  const workspaces = toFence(applied).sort((a, b) => a.service_id.localeCompare(b.service_id));
  await writeIfChanged(recordFile(dataDir), `${JSON.stringify({ workspaces })}\n`, { mode: 0o600 });
}

/** The workspaces to fence as the last run left them; none when there is no record. */
export async function loadFenceRecord(dataDir: string): Promise<WorkspaceDesiredState[]> {
  return (await readJsonFile(recordFile(dataDir), recordSchema))?.workspaces ?? [];
}
