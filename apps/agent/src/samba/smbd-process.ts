// The one smbd of a workspace, supervised by the agent: started inside the workspace's namespace
// (system/namespace.ts), recognised again after an agent restart by the record it leaves in the
// workspace (pid, start time) and the pid's command line, stopped with its whole process group.
import { readFile, rm } from 'node:fs/promises';
import { z } from 'zod';
import type { DaemonSpawner } from '../exec/spawn-daemon.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { waitForPort } from '../net/wait-for-port.ts';
import { inWorkspaceNamespace } from '../system/namespace.ts';
import { processArgv, stopProcessGroup } from '../system/processes.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';

const recordSchema = z.object({ pid: z.number().int().positive(), started_at: z.string(), conf: z.string() });
export type SmbdRecord = z.infer<typeof recordSchema>;

/** The running smbd of this workspace, or undefined (no record, or its pid is another program). */
export async function runningSmbd(layout: WorkspaceLayout): Promise<SmbdRecord | undefined> {
  const text = await readFile(layout.samba.processFile, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const parsed = recordSchema.safeParse(JSON.parse(text.trim() || 'null'));
  if (!parsed.success || parsed.data.conf !== layout.samba.conf) return undefined;
  const argv = await processArgv(parsed.data.pid);
  const isOurs =
    argv !== undefined && argv.some((arg) => /(^|\/)smbd$/.test(arg)) && argv.includes(layout.samba.conf);
  return isOurs ? parsed.data : undefined;
}

export async function startSmbd(
  layout: WorkspaceLayout,
  options: { address: string; port: number; spawn: DaemonSpawner; timeoutMs?: number },
): Promise<SmbdRecord> {
  const { command, args } = inWorkspaceNamespace(layout, [
    'smbd',
    '--foreground',
    '--no-process-group',
    '-s',
    layout.samba.conf,
  ]);
  const daemon = await options.spawn(command, args, { outputFile: layout.samba.outputFile });
  const record: SmbdRecord = {
    pid: daemon.pid,
    started_at: new Date().toISOString(),
    conf: layout.samba.conf,
  };
  await writeIfChanged(layout.samba.processFile, JSON.stringify(record) + '\n', { mode: 0o644 });
  try {
    await waitForPort(options.address, options.port, {
      timeoutMs: options.timeoutMs ?? 15_000,
      stillRunning: () => !daemon.exited(),
    });
  } catch (error) {
    await stopProcessGroup(daemon.pid, 2000).catch(() => undefined);
    await rm(layout.samba.processFile, { force: true });
    const output = await readFile(layout.samba.outputFile, 'utf8').catch(() => '');
    const tail = output.trim().split('\n').slice(-5).join('\n');
    throw new Error(`smbd did not start: ${(error as Error).message}${tail ? `\n${tail}` : ''}`);
  }
  return record;
}

export async function stopSmbd(layout: WorkspaceLayout): Promise<boolean> {
  const running = await runningSmbd(layout);
  if (running) await stopProcessGroup(running.pid);
  const hadRecord = await readFile(layout.samba.processFile).then(
    () => true,
    () => false,
  );
  await rm(layout.samba.processFile, { force: true });
  return running !== undefined || hadRecord;
}
