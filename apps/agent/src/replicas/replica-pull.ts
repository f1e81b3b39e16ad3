// One pull of a standby (contract: replicas.ts): ask the API for the primary's replica since the
// newest one held here, receive it into `replicas` (staged: a receive that fails leaves nothing, and
// one under way is never taken for the newest by a promotion), keep the
// newest STANDBY_KEEPS, and note what arrived for the report (replica.json). The standby's storage
// must be ready first (the storage driver mounts its top level and makes `replicas`): until then
// a pull fails and is tried again the next interval.
import { Transform } from 'node:stream';
import { replicaReportSchema, type ReplicaReport } from '@debesis/contract';
import { z } from 'zod';
import type { ApiClient } from '../api-client.ts';
import type { CommandRunner } from '../exec/run-command.ts';
import { readJsonFile } from '../fs/read-json-file.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { receiveSnapshot } from '../snapshots/replication.ts';
import { REPLICAS_SUBVOLUME } from '../snapshots/snapshots.ts';
import { exists } from '../system/host.ts';
import { mountAt } from '../system/mounts.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';
import {
  listReplicas,
  newestKeeps,
  pruneReplicas,
  replicaTime,
  replicasPath,
  wholeReplicas,
} from './replica-store.ts';

export interface ReplicaPullDeps {
  api: Pick<ApiClient, 'replicaStream'>;
  nodeToken: string;
  layout: WorkspaceLayout;
  run: CommandRunner;
  now?: () => Date;
}

const statusSchema = z.object({ name: z.string(), received_at: z.string(), bytes: z.number() });

/**
 * Pulls once; resolves with what arrived, or undefined for a standby kept as a plain folder (a node
 * that does not run workspaces live: nothing to receive into, nothing to ask for).
 */
export async function pullReplica(
  serviceId: string,
  deps: ReplicaPullDeps,
  signal: AbortSignal,
): Promise<{ name: string; parent?: string; bytes: number } | undefined> {
  const { layout, run } = deps;
  if (!(await exists(layout.image))) return undefined;
  if (!(await mountAt(layout.pool)) || !(await exists(replicasPath(layout))))
    throw new Error('the standby storage is not ready yet');
  // What a receive cut short left (a crash: it never became read-only) goes first; one pull per
  // workspace runs at a time, so none of these is under way.
  const whole = await wholeReplicas(layout, run);
  await pruneReplicas(layout, run, () => new Set(whole));
  const parent = whole[0];
  const stream = await deps.api.replicaStream(deps.nodeToken, serviceId, parent, signal);
  let bytes = 0;
  const counted = stream.body.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    }),
  );
  stream.body.once('error', (error) => counted.destroy(error));
  await receiveSnapshot(layout, stream.name, counted, run, { folder: REPLICAS_SUBVOLUME, signal });
  await pruneReplicas(layout, run, (held) => newestKeeps(held));
  const received_at = (deps.now?.() ?? new Date()).toISOString();
  await writeIfChanged(
    layout.replicaStatus,
    `${JSON.stringify({ name: stream.name, received_at, bytes })}\n`,
    {
      mode: 0o600,
    },
  );
  return { name: stream.name, ...(stream.parent ? { parent: stream.parent } : {}), bytes };
}

/**
 * The standby's report of its newest replica; undefined before the first. From the note of the last
 * pull, written only once a replica arrived whole (a listing would show one still arriving).
 */
export async function replicaReport(layout: WorkspaceLayout): Promise<ReplicaReport | undefined> {
  const status = await readJsonFile(layout.replicaStatus, statusSchema);
  const takenAt = status && replicaTime(status.name);
  if (!status || !takenAt || !(await listReplicas(layout)).includes(status.name)) return undefined;
  return replicaReportSchema.parse({
    name: status.name,
    taken_at: takenAt.toISOString(),
    received_at: status.received_at,
    bytes: status.bytes,
  });
}
