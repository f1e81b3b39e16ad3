// LDAP through the product (issue 17, acceptance 3): pay for MINI → active → a user in the Users
// tab → the LDAP tab, where rotating the read-only bind password (shown once) starts the
// workspace's slapd; the owner suspends the user from the users table and she can no longer bind,
// lifts it and she can; then sets an expiry date on her row, which the table shows, a reload
// keeps, and the directory holds (shadowExpire, read with the bind account). The client is the
// node itself, as in the NFS journey: ldapwhoami and ldapsearch over StartTLS, trusting the
// workspace's own certificate (read from the node's copy, as a customer would save it).
// It needs live workspaces and slapd (root, loop devices: CI has them), so the journey starts its
// own product with them and terminates its workspace afterwards, checking nothing is left.
// Elsewhere it is skipped with the reason printed.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveWorkspacesUnavailable, localWorkspaceLayout } from '../scripts/lib/live-workspaces.ts';
import { signedInPage } from './support/checkout.ts';
import { useScratchDir } from './support/scratch-dir.ts';
import {
  buyMiniUntilActive,
  pageApi,
  serviceStatusText,
  useLiveBrowser,
  useLiveProduct,
} from './support/live.ts';
import { addWorkspaceUser, openService, openTab } from './support/service-page.ts';

const USER = 'alice';
const PASSWORD = 'Alice-Ldap-Pass-7';
/** How soon a change made in the tab must be in the directory (issue 17: within 2 s; CI is slower). */
const SEEN_WITHIN_MS = 20_000;
/** The table shows the node's answer once it has applied the change. */
const POLL = { timeout: 60_000, interval: 250 };

const unavailable =
  liveWorkspacesUnavailable() ??
  (['slapd', 'ldapwhoami', 'ldapsearch'].some(
    (program) =>
      spawnSync('sh', ['-c', `command -v ${program} || test -x /usr/sbin/${program}`]).status !== 0,
  )
    ? 'slapd or ldap-utils is not installed'
    : undefined);
if (unavailable) {
  console.warn(`[e2e] LDAP journey skipped: ${unavailable} (CI runs it as root with slapd and ldap-utils)`);
}

/** An OpenLDAP client program, bounded, over StartTLS trusting `caFile`. */
function ldap(program: 'ldapwhoami' | 'ldapsearch', caFile: string, uri: string, args: string[]) {
  const result = spawnSync(program, ['-x', '-ZZ', '-H', uri, ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, LDAPTLS_CACERT: caFile, LDAPTLS_REQCERT: 'demand' },
  });
  return { ok: result.status === 0, output: `${result.stdout}\n${result.stderr}` };
}

/** Asks `probe` every 250 ms until it holds, at most `withinMs`; answers its last output. */
async function until(withinMs: number, probe: () => { ok: boolean; output: string }) {
  const deadline = Date.now() + withinMs;
  let last = probe();
  while (!last.ok && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    last = probe();
  }
  return last;
}

/** A date `days` from today in Europe/Vilnius (the service's time zone): YYYY-MM-DD. */
function vilniusDate(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Vilnius' }).format(new Date());
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

describe.skipIf(unavailable !== undefined)('LDAP suspension and expiry set in the tab', () => {
  const live = useLiveProduct();
  const browser = useLiveBrowser(live);
  const localDir = useScratchDir('ldap-e2e');

  it('pay → active → user → LDAP tab: suspended she cannot bind, lifted she can; an expiry is set and kept', async () => {
    const page = await signedInPage(browser);
    const customer = await pageApi(page, browser.baseUrl);
    live.api = customer;
    const serviceId = await buyMiniUntilActive(page, customer, live.bought);
    await openService(page, serviceId);
    await addWorkspaceUser(page, USER, PASSWORD);

    // The LDAP tab: the connection details, and the bind account's password shown once.
    await openTab(page, serviceId, 'ldap');
    await page.getByTestId('ldap-rotate').click();
    const shown = page.getByTestId('ldap-new-password').locator('code');
    await shown.waitFor();
    const bindPassword = (await shown.innerText()).trim();
    expect(bindPassword.length).toBeGreaterThanOrEqual(16);
    await page
      .locator('[data-testid="ldap-live"][data-state="serving"]')
      .waitFor({ timeout: 60_000 })
      .catch(async (error: unknown) => {
        throw new Error(`slapd not serving: ${await serviceStatusText(customer, serviceId)}`, {
          cause: error,
        });
      });
    const uri = (await page.getByTestId('ldap-uri-0').innerText()).trim();
    expect(uri).toMatch(/^ldap:\/\//);
    const baseDn = (await page.getByTestId('ldap-base-dn').innerText()).trim();
    const usersDn = (await page.getByTestId('ldap-users-dn').innerText()).trim();
    const bindDn = (await page.getByTestId('ldap-bind-dn').innerText()).trim();
    const userDn = `uid=${USER},${usersDn}`;

    // The workspace's certificate, as a customer would save it to trust the server.
    const pem = readFileSync(localWorkspaceLayout(live.product.dataDir, serviceId).ldap.certificate, 'utf8');
    const caFile = join(localDir, 'workspace.crt');
    writeFileSync(caFile, pem.slice(0, pem.indexOf('-----END CERTIFICATE-----') + 25) + '\n');
    const whoami = () => ldap('ldapwhoami', caFile, uri, ['-D', userDn, '-w', PASSWORD]);
    const before = await until(SEEN_WITHIN_MS, whoami);
    expect(before.ok, before.output).toBe(true);

    // Suspended from her row: she cannot bind; the state says so and stays after a reload.
    await page.getByTestId(`ldap-suspend-${USER}`).click();
    await page.getByTestId('ldap-notice-success').waitFor();
    await expect.poll(() => page.getByTestId(`ldap-state-${USER}`).innerText(), POLL).toBe('Suspended');
    const refused = await until(SEEN_WITHIN_MS, () => {
      const attempt = whoami();
      return { ok: !attempt.ok, output: attempt.output };
    });
    expect(refused.ok, `a suspended user still binds: ${refused.output}`).toBe(true);
    expect(refused.output).toContain('Invalid credentials');
    await page.reload();
    await expect.poll(() => page.getByTestId(`ldap-state-${USER}`).innerText(), POLL).toBe('Suspended');

    // Lifted: she binds again.
    await page.getByTestId(`ldap-suspend-${USER}`).click();
    await expect.poll(() => page.getByTestId(`ldap-state-${USER}`).innerText(), POLL).toBe('Can sign in');
    const back = await until(SEEN_WITHIN_MS, whoami);
    expect(back.ok, back.output).toBe(true);

    // An expiry date a month ahead: set on her row, shown, kept, and in the directory.
    const expiry = vilniusDate(30);
    await page.getByTestId(`ldap-expiry-${USER}`).fill(expiry);
    await page.getByTestId(`ldap-set-expiry-${USER}`).click();
    await page.getByTestId(`ldap-clear-expiry-${USER}`).waitFor();
    await page.reload();
    await expect.poll(() => page.getByTestId(`ldap-expiry-${USER}`).inputValue(), POLL).toBe(expiry);
    const expected = String(Math.floor(Date.parse(`${expiry}T00:00:00Z`) / 86_400_000) + 1);
    const read = await until(SEEN_WITHIN_MS, () => {
      const found = ldap('ldapsearch', caFile, uri, [
        '-D',
        bindDn,
        '-w',
        bindPassword,
        '-LLL',
        '-b',
        baseDn,
        `(uid=${USER})`,
        'shadowExpire',
      ]);
      return { ok: found.ok && found.output.includes(`shadowExpire: ${expected}`), output: found.output };
    });
    expect(read.ok, read.output).toBe(true);
    // Still before the date: she binds.
    const still = whoami();
    expect(still.ok, still.output).toBe(true);
  }, 300_000);
});
