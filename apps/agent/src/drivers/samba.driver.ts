// Samba for one workspace (DAEMONS.md "a workspace as a light container"): its own smbd bound
// only to the workspace's address, its own smb.conf and tdbsam passdb, started inside the
// workspace's namespace where its passwd/group/shadow are /etc/…, and supervised by the agent
// (started when running, started again if it died, stopped when stopped or removed).
//
// A pass: check each share (bad ones become failures, the rest go on) and make its folder;
// render smb.conf and, only if it differs, check it with `testparm -s` and write it; sync the
// passdb from NT hashes; start smbd, or reload it (`smbcontrol … reload-config`) only when the
// config changed, or restart it when the owner asked (a new restart_token). An unchanged
// workspace runs no program at all.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SAMBA_NOT_USED, type ResourceFailure, type WorkspaceDesiredState } from '@debesis/contract';
import { validateAccounts } from '../accounts/validate-accounts.ts';
import type { CommandRunner } from '../exec/run-command.ts';
import { spawnDaemon, type DaemonSpawner } from '../exec/spawn-daemon.ts';
import { ensureDir, ensureDirUnder } from '../fs/ensure-dir.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { NAMESPACE_DATA_ROOT } from '../system/namespace.ts';
import { syncPassdb } from '../samba/passdb.ts';
import { renderSmbpasswd } from '../samba/render-smbpasswd.ts';
import {
  netbiosNameFor,
  renderGlobal,
  renderShare,
  type SmbGlobalOptions,
} from '../samba/render-smb-conf.ts';
import { resolveShares, type ResolvedShare } from '../samba/resolve-shares.ts';
import { runningSmbd, startSmbd, stopSmbd } from '../samba/smbd-process.ts';
import { workspaceLayout, type WorkspaceLayout } from '../workspace-layout.ts';
import type { Driver, DriverContext, DriverResult } from './driver.ts';
import { notLiveReason, type LiveDriverOptions } from './live-mode.ts';

export const SAMBA_DRIVER = 'samba';
export const DEFAULT_SMB_PORT = 445;
const PROGRAMS = ['smbd', 'testparm', 'pdbedit', 'smbcontrol', 'unshare', 'mount'];

export interface SambaDriverOptions extends LiveDriverOptions {
  /** Default 445 (on the workspace's own address, so every workspace can have it). */
  port?: number;
  spawn?: DaemonSpawner;
  /** How long smbd may take to listen. Default 15 s. */
  startTimeoutMs?: number;
}

export function createSambaDriver(options: SambaDriverOptions = {}): Driver {
  const port = options.port ?? DEFAULT_SMB_PORT;
  const spawn = options.spawn ?? spawnDaemon;

  return {
    name: SAMBA_DRIVER,

    async apply(desired, context) {
      const layout = workspaceLayout(context.workspaceDir);
      const reason = await notLiveReason(options, PROGRAMS);
      if (desired.state === 'removed') return stopped(layout, reason);
      return applySamba(desired, context, layout, reason);
    },

    async observe(desired, context) {
      const layout = workspaceLayout(context.workspaceDir);
      const running = await runningSmbd(layout);
      if (desired.state !== 'running' || (await notLiveReason(options, PROGRAMS)) !== undefined)
        return { facts: { started_at: running?.started_at ?? null } };
      if (!running) return { drift: 'smbd is not running', serving: false, facts: { started_at: null } };
      return { serving: true, facts: { started_at: running.started_at } };
    },

    async quiesce(_desired, context) {
      await stopSmbd(workspaceLayout(context.workspaceDir));
    },
  };

  async function stopped(layout: WorkspaceLayout, reason: string | undefined): Promise<DriverResult> {
    // Stopping works whatever the host lacks now: a daemon started earlier must not outlive this.
    const actions = (await stopSmbd(layout)) ? ['stopped smbd'] : [];
    return {
      changed: actions.length > 0,
      actions,
      status: reason ? { driver: SAMBA_DRIVER, live: false, reason } : { driver: SAMBA_DRIVER, live: true },
      facts: { started_at: null },
    };
  }

  async function applySamba(
    desired: WorkspaceDesiredState,
    context: DriverContext,
    layout: WorkspaceLayout,
    reason: string | undefined,
  ): Promise<DriverResult> {
    const { samba } = layout;
    const actions: string[] = [];
    const accounts = validateAccounts(desired);
    // An absent section: the workspace does not use Samba.
    const section = desired.samba ?? SAMBA_NOT_USED;
    const resolved = resolveShares(section.shares, accounts, NAMESPACE_DATA_ROOT);
    const failures: ResourceFailure[] = [...resolved.failures];

    for (const dir of [
      samba.dir,
      samba.privateDir,
      samba.lockDir,
      samba.stateDir,
      samba.cacheDir,
      samba.runDir,
      samba.logDir,
    ])
      await ensureDir(dir, { mode: dir === samba.privateDir ? 0o700 : 0o755 });

    // Share folders: created root-owned, group `users`, setgid, so what is made inside stays the
    // workspace's group. An existing folder (customer data) is left as it is.
    const shares: ResolvedShare[] = [];
    for (const share of resolved.shares) {
      try {
        if (
          await ensureDirUnder(
            layout.dataRoot,
            share.relativePath,
            { mode: 0o755, uid: 0, gid: 0, onlyWhenCreated: true },
            { mode: 0o2770, uid: 0, gid: desired.id_base, onlyWhenCreated: true },
          )
        )
          actions.push(`created share folder ${share.path}`);
        shares.push(share);
      } catch (error) {
        failures.push({ kind: 'share', name: share.name, error: `folder: ${(error as Error).message}` });
      }
    }

    const global: SmbGlobalOptions = {
      address: desired.address,
      port,
      netbiosName: netbiosNameFor(desired.service_id),
      layout: samba,
      guests: shares.some((s) => s.guestOk),
      settings: section.settings,
    };
    const conf = await renderChecked(global, shares, samba, context.run, failures);
    const confChanged = (await writeIfChanged(samba.conf, conf, { mode: 0o644 })).changed;
    if (confChanged) actions.push(`wrote ${samba.conf}`);

    if (reason) {
      return {
        changed: actions.length > 0,
        actions,
        status: {
          driver: SAMBA_DRIVER,
          live: false,
          reason: `${reason}: smb.conf is rendered, smbd does not run`,
        },
        failures,
        facts: { started_at: null },
      };
    }

    actions.push(
      ...(await syncPassdb(
        layout,
        renderSmbpasswd(accounts.users),
        accounts.users.map((u) => u.name),
        context.run,
      )),
    );

    if (desired.state === 'stopped') {
      const result = await stopped(layout, undefined);
      return {
        ...result,
        changed: result.changed || actions.length > 0,
        actions: [...actions, ...result.actions],
        failures,
      };
    }

    // The owner's restart (POST …/restart) arrives as a new restart_token: act on each one once.
    const tokenFile = join(samba.dir, 'restart-token');
    const actedOn = (await readFile(tokenFile, 'utf8').catch(() => '')).trim();
    const restartAsked = desired.restart_token !== undefined && desired.restart_token !== actedOn;

    let running = await runningSmbd(layout);
    if (running && restartAsked) {
      await stopSmbd(layout);
      running = undefined;
      actions.push('stopped smbd for the restart the owner asked for');
    }
    if (!running) {
      await mkdir(samba.runDir, { recursive: true });
      running = await startSmbd(layout, {
        address: desired.address,
        port,
        spawn,
        timeoutMs: options.startTimeoutMs,
      });
      actions.push(`started smbd (pid ${running.pid}) on ${desired.address}:${port}`);
    } else if (confChanged) {
      await context.run('smbcontrol', ['-s', samba.conf, 'smbd', 'reload-config'], { check: true });
      actions.push('reloaded smbd');
    }
    if (restartAsked) await writeIfChanged(tokenFile, `${desired.restart_token}\n`, { mode: 0o644 });
    return {
      changed: actions.length > 0,
      actions,
      status: { driver: SAMBA_DRIVER, live: true, serving: true },
      failures,
      facts: { started_at: running.started_at },
    };
  }
}

/**
 * The config to write: the current file when the rendering is unchanged (no program runs), else
 * the new rendering once `testparm -s` accepts it. When it does not, each share is checked alone
 * and the ones it refuses are left out as failures; a refused [global] fails the whole driver.
 */
async function renderChecked(
  global: SmbGlobalOptions,
  shares: ResolvedShare[],
  samba: WorkspaceLayout['samba'],
  run: CommandRunner,
  failures: ResourceFailure[],
): Promise<string> {
  const globalText = renderGlobal(global);
  const render = (list: ResolvedShare[]) => [globalText, ...list.map(renderShare)].join('\n');
  const full = render(shares);
  const current = await readFile(samba.conf, 'utf8').catch(() => undefined);
  if (current === full) return full;

  const candidate = `${samba.conf}.candidate`;
  const check = async (text: string): Promise<string | undefined> => {
    await writeIfChanged(candidate, text, { mode: 0o644 });
    const result = await run('testparm', ['-s', '--suppress-prompt', candidate]);
    // Without testparm (render-only hosts) the config is written unchecked; the status says why.
    if (result.missing) return undefined;
    const complaint = result.stderr
      .split('\n')
      .filter((line) => /unknown parameter|error|not a valid|invalid/i.test(line))
      .join('; ');
    if (result.ok && !complaint) return undefined;
    return (
      complaint ||
      result.stderr.trim().split('\n').slice(-3).join('; ') ||
      `testparm exited with ${result.exitCode}`
    );
  };
  try {
    if ((await check(full)) === undefined) return full;
    const globalProblem = await check(globalText);
    if (globalProblem) throw new Error(`testparm refused smb.conf: ${globalProblem}`);
    const accepted: ResolvedShare[] = [];
    for (const share of shares) {
      const problem = await check(render([share]));
      if (problem)
        failures.push({ kind: 'share', name: share.name, error: `testparm: ${problem}`.slice(0, 1000) });
      else accepted.push(share);
    }
    return render(accepted);
  } finally {
    await rm(candidate, { force: true });
  }
}
