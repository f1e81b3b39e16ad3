// One pull of a standby (contract: replicas.ts): ask the API for the primary's replica since the
// newest one held here, receive it into `replicas` (a receive that fails leaves nothing), keep the
// newest STANDBY_KEEPS, and note what arrived for the report (replica.json). The standby's storage
// must be ready first (the storage driver mounts its top level and makes `replicas`): until then
// a pull fails and is tried again the next interval.
import { readFile } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { replicaReportSchema, type ReplicaReport } from '@debesis/contract';
import { z } from 'zod';
import type { ApiClient } from '../api-client.ts';
import type { CommandRunner } from '../exec/run-command.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { receiveSnapshot } from '../snapshots/replication.ts';
import { REPLICAS_SUBVOLUME } from '../snapshots/snapshots.ts';
import { exists } from '../system/host.ts';
import { mountAt } from '../system/mounts.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';
import { listReplicas, newestKeeps, pruneReplicas, replicaTime, replicasPath } from './replica-store.ts';

export interface ReplicaPullDeps {
  api: Pick<ApiClient, 'replicaStream'>;
  nodeToken: string;
  layout: WorkspaceLayout;
  run: CommandRunner;
  now?: () => Date;
}

const statusSchema = z.object({ name: z.string(), received_at: z.string(), bytes: z.number() });

/** Pulls once; resolves with what arrived. */
export async function pullReplica(
  serviceId: string,
  deps: ReplicaPullDeps,
  signal: AbortSignal,
): Promise<{ name: string; parent?: string; bytes: number }> {
  const { layout, run } = deps;
  if (!(await mountAt(layout.pool)) || !(await exists(replicasPath(layout))))
    throw new Error('the standby storage is not ready yet');
  const parent = (await listReplicas(layout))[0];
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

/** The standby's report of its newest replica; undefined before the first. */
export async function replicaReport(layout: WorkspaceLayout): Promise<ReplicaReport | undefined> {
  const newest = (await listReplicas(layout))[0];
  if (!newest) return undefined;
  const text = await readFile(layout.replicaStatus, 'utf8').catch(() => undefined);
  let status: z.infer<typeof statusSchema> | undefined;
  try {
    status = text === undefined ? undefined : statusSchema.safeParse(JSON.parse(text)).data;
  } catch {
    status = undefined;
  }
  const takenAt = replicaTime(newest)!.toISOString();
  return replicaReportSchema.parse({
    name: newest,
    taken_at: takenAt,
    // A replica without its note (a crash between receive and note): it arrived after it was taken.
    received_at: status?.name === newest ? status.received_at : takenAt,
    bytes: status?.name === newest ? status.bytes : 0,
  });
}
