// A workspace for real, as issue "Workspaces for real" asks: pay for MINI → the service becomes
// active → create a user and a Samba share in the UI → smbclient connects with those credentials,
// writes and lists; a wrong password is refused. This needs live workspaces (root, samba, loop
// devices: CI has them), so the journey starts its own product with them and removes its
// workspace afterwards (terminated through the API, then checked: no smbd, mount, loop device or
// workspace network left). Elsewhere it is skipped with the reason printed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrf } from '../scripts/lib/accounts.ts';
import {
  findLeftovers,
  isClean,
  liveWorkspacesUnavailable,
  removeLeftovers,
} from '../scripts/lib/live-workspaces.ts';
import { LIVE_ADDRESS_POOL, startProduct, type RunningServer } from '../scripts/lib/processes.ts';
import { useBrowser } from './support/browser.ts';
import { chooseMini, payOnSandbox, signedInPage } from './support/checkout.ts';

const SUCCESS_CARD = '4242 4242 4242 4242';
const USER = 'alice';
const PASSWORD = 'Alice-Share-Pass-7';
const SHARE = 'projects';

const unavailable = liveWorkspacesUnavailable();
if (unavailable) {
  console.warn(
    `[e2e] workspace journey skipped: ${unavailable} (CI runs it as root with samba and smbclient)`,
  );
}

interface Smb {
  ok: boolean;
  output: string;
}

function smbclient(address: string, password: string, command: string): Smb {
  const result = spawnSync(
    'smbclient',
    [`//${address}/${SHARE}`, '-U', `${USER}%${password}`, '-m', 'SMB3', '-c', command],
    { encoding: 'utf8', timeout: 60_000 },
  );
  return { ok: result.status === 0, output: `${result.stdout}\n${result.stderr}` };
}

describe.skipIf(unavailable !== undefined)('a live workspace bought and used', () => {
  let product: RunningServer | undefined;
  const browser = useBrowser(() => {
    if (!product) throw new Error('the live product did not start');
    return { baseUrl: product.url, dataDir: product.dataDir };
  });
  /** What afterAll needs to terminate the workspace through the API. */
  let session: { token: string; serviceId: string } | undefined;
  const localDir = mkdtempSync(join(tmpdir(), 'workspace-e2e-'));

  beforeAll(async () => {
    product = await startProduct({}, { liveWorkspaces: true });
  });

  afterAll(async () => {
    if (!product) return;
    const { url, dataDir } = product;
    const terminated = session
      ? await terminate(url, session).then(
          () => 'removed',
          (error: unknown) => String(error),
        )
      : 'removed';
    const left = findLeftovers(dataDir, LIVE_ADDRESS_POOL);
    if (!isClean(left)) removeLeftovers(left);
    await product.stop();
    rmSync(localDir, { recursive: true, force: true });
    // Checked after the clean-up, so that a failure here leaves nothing behind either.
    expect(terminated).toBe('removed');
    expect(left, 'the terminated workspace left something on the machine').toEqual({
      processes: [],
      mounts: [],
      loopDevices: [],
      addresses: [],
    });
  });

  it('pay → active → user and share in the UI → smbclient writes and lists with those credentials', async () => {
    const page = await signedInPage(browser);
    const token = await page.evaluate(() => localStorage.getItem('token'));

    // Buy MINI with a test card.
    await chooseMini(page);
    await page.waitForURL('**/dashboard/payments/new/payment');
    await page.getByTestId('payment-pay').click();
    await payOnSandbox(page, SUCCESS_CARD);
    await page.getByTestId('completion-success').waitFor({ timeout: 30_000 });
    await page.getByTestId('completion-services-link').click();
    await page.waitForURL('**/dashboard/services');

    // The list asks again until the node has set the workspace up.
    const row = page.locator('[data-testid^="service-row-"]').first();
    await row.waitFor();
    const serviceId = ((await row.getAttribute('data-testid')) ?? '').replace('service-row-', '');
    session = { token: token ?? '', serviceId };
    await page
      .locator(`[data-testid="service-status-${serviceId}"][data-status="active"]`)
      .waitFor({ timeout: 120_000 })
      .catch(async (error: unknown) => {
        throw new Error(`not active: ${await serviceStatus(browser.baseUrl, session)}`, { cause: error });
      });

    // Open it: the overview has its address.
    await page.getByTestId(`service-link-${serviceId}`).click();
    await page.waitForURL(`**/dashboard/services/${serviceId}`);
    const address = (await page.getByTestId('service-fact-ip').innerText()).trim();
    expect(address).toMatch(/^198\.18\.12\.\d+$/);

    // Users: the form refuses a confirmation that does not match, then creates alice.
    await page.getByTestId('service-tab-users').click();
    await page.getByTestId('workspace-users-add').click();
    await page.getByTestId('user-create-name').fill(USER);
    await page.getByTestId('user-create-password').fill(PASSWORD);
    await page.getByTestId('user-create-confirm').fill(`${PASSWORD}x`);
    await page.getByTestId('user-create-submit').click();
    expect(await page.getByTestId('user-create-confirm-error').innerText()).toBe('Passwords do not match');
    await page.getByTestId('user-create-confirm').fill(PASSWORD);
    await page.getByTestId('user-create-submit').click();
    await page.locator(`[data-testid="user-${USER}-apply"][data-apply-status="applied"]`).waitFor({
      timeout: 60_000,
    });

    // Samba: a share alice may read and write.
    await page.getByTestId('service-tab-samba').click();
    await page.getByTestId('samba-shares-add').click();
    await page.getByTestId('share-name').fill(SHARE);
    await page.getByTestId(`share-user-${USER}-allowed`).check();
    expect(await page.getByTestId(`share-user-${USER}-read`).isChecked()).toBe(true);
    expect(await page.getByTestId(`share-user-${USER}-write`).isChecked()).toBe(true);
    await page.getByTestId('share-submit').click();
    await page.locator(`[data-testid="share-${SHARE}-apply"][data-apply-status="applied"]`).waitFor({
      timeout: 60_000,
    });
    expect(await page.getByTestId(`share-${SHARE}-users`).innerText()).toContain(USER);
    expect(await page.getByTestId(`share-${SHARE}-unc`).innerText()).toBe(`\\\\${address}\\${SHARE}`);
    expect(await page.getByTestId('samba-live').innerText()).toMatch(/^Yes/);

    // From outside the browser, as a client would: write a file and list it.
    const local = join(localDir, 'hello.txt');
    writeFileSync(local, 'hello from alice\n');
    const put = smbclient(address, PASSWORD, `put ${local} hello.txt; ls`);
    expect(put.ok, put.output).toBe(true);
    expect(put.output).toContain('hello.txt');
    const list = smbclient(address, PASSWORD, 'ls');
    expect(list.ok, list.output).toBe(true);
    expect(list.output).toContain('hello.txt');

    const refused = smbclient(address, 'not-her-password', 'ls');
    expect(refused.ok).toBe(false);
    expect(refused.output).toContain('NT_STATUS_LOGON_FAILURE');
  }, 300_000);
});

async function apiHeaders(baseUrl: string, token: string): Promise<Record<string, string>> {
  const { cookie, token: csrfToken } = await csrf(baseUrl);
  return { authorization: `Bearer ${token}`, cookie, 'x-csrf-token': csrfToken };
}

/** The service's status as the API reports it, for a failure message. */
async function serviceStatus(baseUrl: string, of: { token: string; serviceId: string } | undefined) {
  if (!of) return 'no service';
  const response = await fetch(`${baseUrl}/api/v1/services/${of.serviceId}/status`, {
    headers: await apiHeaders(baseUrl, of.token),
  });
  return `${response.status} ${await response.text()}`;
}

/**
 * Terminates the service through the API (cancelling it first while it is still being set up,
 * when terminating is refused) and waits until its node has removed it.
 */
async function terminate(baseUrl: string, of: { token: string; serviceId: string }): Promise<void> {
  const headers = await apiHeaders(baseUrl, of.token);
  const act = (action: 'cancel' | 'terminate') =>
    fetch(`${baseUrl}/api/v1/services/${of.serviceId}/action`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ action }),
    });
  let response = await act('terminate');
  if (response.status === 409) {
    await act('cancel');
    response = await act('terminate');
  }
  if (response.status !== 200) throw new Error(`terminate: ${response.status} ${await response.text()}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await fetch(`${baseUrl}/api/v1/services/${of.serviceId}/status`, { headers });
    const body = (await status.json()) as { status: string; apply_status: string };
    if (body.status === 'terminated' && body.apply_status === 'applied') return;
    if (Date.now() > deadline) throw new Error(`the workspace was not removed: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
