// LDAP's figures of issue 17 (acceptance 4), live as root with slapd and ldap-utils:
// - a dashboard change → the directory showing it (target < 2 s): the owner's call returns, then
//   ldapwhoami from the node (StartTLS, trusting the workspace's certificate) is asked every 20 ms
//   until it sees the change; alternately a suspension (she cannot bind) and its lifting (she can),
//   and a new user made in the Users API binding with her password;
// - the no-op reconcile of a workspace with 200 users and LDAP over them is in the reconcile part
//   (every-feature workspace), target < 100 ms.
// Medians of a few bounded runs. The product runs as its own process with live workspaces;
// afterwards its workspace is terminated through the API and whatever is still left is removed.
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { firstMissingProgram, runCommand } from '@debesis/agent';
import type { LdapConfig, LdapStatus } from '@debesis/contract';
import { withBenchProduct, type BenchProduct } from '../lib/live-product.ts';
import { liveWorkspacesUnavailable, localWorkspaceLayout } from '../lib/live-workspaces.ts';
import { buyWorkspace, cheapestPlan, json } from '../lib/workspace-api.ts';
import { median } from './vpn.ts';

export interface LdapFigures {
  /** Why it did not run, when it did not. */
  skipped?: string;
  suspendedMs: number[];
  liftedMs: number[];
  createdMs: number[];
}

const SUSPEND_RUNS = 5;
const CREATE_RUNS = 3;
const PASSWORD = 'Bench-Ldap-Pass-1';
const POLL_MS = 20;
const SEEN_WITHIN_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ldapUnavailable(): Promise<string | undefined> {
  const live = liveWorkspacesUnavailable();
  if (live) return live;
  const missing = await firstMissingProgram(['slapd', 'slapadd', 'slaptest', 'ldapmodify', 'ldapwhoami']);
  return missing ? `${missing} is not installed` : undefined;
}

/** Asks `holds` every POLL_MS until it answers true; the time since `since` (ms). */
async function seenAfter(since: number, what: string, holds: () => Promise<boolean>): Promise<number> {
  while (!(await holds())) {
    if (performance.now() - since > SEEN_WITHIN_MS)
      throw new Error(`${what}: not seen within ${SEEN_WITHIN_MS} ms`);
    await sleep(POLL_MS);
  }
  return Math.round(performance.now() - since);
}

async function sent(response: Response, what: string): Promise<void> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
}

export async function measureLdap(): Promise<LdapFigures> {
  const unavailable = await ldapUnavailable();
  if (unavailable) return { skipped: unavailable, suspendedMs: [], liftedMs: [], createdMs: [] };

  return withBenchProduct({}, async (bench) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bench-ldap-'));
    try {
      return await measureOn(bench, dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}

/** The figures on `bench`'s product; `dir` holds the workspace's certificate for the client. */
async function measureOn({ product, signUp, bought }: BenchProduct, dir: string): Promise<LdapFigures> {
  const customer = await signUp();
  const plan = await cheapestPlan(product.url);
  const order = { ...plan.order, users_count: Math.max(plan.order.users_count, CREATE_RUNS + 1) };
  const workspace = await buyWorkspace(customer, order, 'bench-ldap', {
    withinMs: 120_000,
    onService: bought,
  });
  const users = `/user-groups/${workspace.id}/users`;
  const ldap = `/ldap/services/${workspace.id}/ldap`;
  await sent(await customer.send('POST', users, { name: 'alice', password: PASSWORD }), 'user alice');
  // The owner's first LDAP change starts the directory.
  await sent(
    await customer.send('POST', `${ldap}/bind-settings`, { rotate_password: true }),
    'bind settings',
  );
  const serving = performance.now();
  await seenAfter(serving, 'slapd serving', async () => {
    const status = await json<LdapStatus>(await customer.get(`${ldap}/status`), 'LDAP status');
    return status.apply_status === 'applied' && status.running === true;
  });
  const config = await json<LdapConfig>(await customer.get(`${ldap}/config`), 'LDAP config');
  const uri = config.uris.find((candidate) => candidate.startsWith('ldap://')) ?? '';
  const pem = await readFile(localWorkspaceLayout(product.dataDir, workspace.id).ldap.certificate, 'utf8');
  const caFile = path.join(dir, 'workspace.crt');
  await writeFile(caFile, pem.slice(0, pem.indexOf('-----END CERTIFICATE-----') + 25) + '\n');
  const binds = async (name: string) =>
    (
      await runCommand(
        'ldapwhoami',
        ['-x', '-ZZ', '-H', uri, '-D', `uid=${name},${config.users_dn}`, '-w', PASSWORD],
        { timeoutMs: 10_000, env: { ...process.env, LDAPTLS_CACERT: caFile, LDAPTLS_REQCERT: 'demand' } },
      )
    ).exitCode === 0;
  await seenAfter(performance.now(), 'alice binds', () => binds('alice'));

  const suspendedMs: number[] = [];
  const liftedMs: number[] = [];
  for (let run = 0; run < SUSPEND_RUNS; run += 1) {
    for (const suspend of [true, false]) {
      const started = performance.now();
      await sent(
        await customer.send('POST', `${ldap}/users/alice/suspend`, { suspend }),
        suspend ? 'suspend' : 'unsuspend',
      );
      const ms = await seenAfter(started, suspend ? 'alice refused' : 'alice binds again', async () =>
        suspend ? !(await binds('alice')) : binds('alice'),
      );
      (suspend ? suspendedMs : liftedMs).push(ms);
    }
  }
  const createdMs: number[] = [];
  for (let run = 1; run <= CREATE_RUNS; run += 1) {
    const name = `member${run}`;
    const started = performance.now();
    await sent(await customer.send('POST', users, { name, password: PASSWORD }), `user ${name}`);
    createdMs.push(await seenAfter(started, `${name} binds`, () => binds(name)));
  }
  return { suspendedMs, liftedMs, createdMs };
}

export function printLdap(figures: LdapFigures) {
  if (figures.skipped) {
    console.log(`\nLDAP: skipped (${figures.skipped}; it runs as root with slapd and ldap-utils)`);
    return;
  }
  const ms = (value: number) => `${value} ms`;
  const row = (what: string, runs: number[]) =>
    console.log(`| ${what} | ${ms(median(runs))} | < 2 s | ${runs.map(ms).join(', ')} |`);
  console.log('\nLDAP (live: workspace namespace, slapd; ldapwhoami over StartTLS from the node)');
  console.log('| dashboard change → the directory shows it | median | target | each |');
  console.log('|---|---:|---:|---|');
  row('user suspended → she cannot bind', figures.suspendedMs);
  row('suspension lifted → she binds', figures.liftedMs);
  row('user created in Users → she binds', figures.createdMs);
}

// `tsx scripts/bench/ldap.ts` measures this alone.
if (import.meta.url === `file://${process.argv[1]}`) printLdap(await measureLdap());
