// FTP and SFTP in the tabs (issue 16, acceptance 4, its FTP half): after buying MINI and adding a
// user, the `ftp` tab shows where to connect (host, ports, the SFTP command) and the user with
// FTP/SFTP on, read and write, by default; the owner sets them read-only, the node applies it
// and the choice stays after a reload. The `ftp-advanced` tab refuses a passive range too small
// for the clients asked for on its field, before anything is sent, and saves a good change.
import { describe, expect, it } from 'vitest';
import { useOwnProductBrowser } from './support/browser.ts';
import { activeInList, buyMini, listedServiceId, signedInPage } from './support/checkout.ts';
import { addWorkspaceUser, openService, openTab } from './support/service-page.ts';

const USER = 'alice';
const PASSWORD = 'Alice-Ftp-Pass-7';

describe('FTP and SFTP', () => {
  // A product of its own: the shared one's node is full of the other journeys' workspaces by the
  // time this runs, and a new one would wait for room.
  const browser = useOwnProductBrowser();

  it(
    'sets a user read-only for FTP in the tab, and changes the advanced settings',
    { timeout: 180_000 },
    async () => {
      const page = await signedInPage(browser);
      await buyMini(page);
      const serviceId = await listedServiceId(page);
      await activeInList(page, serviceId, 120_000);

      // A user of the service, made in the Users tab.
      const address = await openService(page, serviceId);
      await addWorkspaceUser(page, USER, PASSWORD);

      // The FTP tab: where to connect, and alice may use FTP and SFTP, read and write, by default.
      await openTab(page, serviceId, 'ftp');
      expect(await page.getByTestId('ftp-host').innerText()).toBe(address);
      expect(await page.getByTestId('ftp-port').innerText()).toBe('21');
      expect(await page.getByTestId('sftp-command').innerText()).toBe(`sftp -P 22 ${USER}@${address}`);
      const enabled = page.getByTestId(`ftp-user-${USER}-enabled`);
      const rights = page.getByTestId(`ftp-user-${USER}-permissions`);
      expect(await enabled.isChecked()).toBe(true);
      expect(await rights.inputValue()).toBe('read_write');

      // Read-only: sent, applied by the node, kept.
      await rights.selectOption('read_only');
      // The answer shows at once (applying), then the node's report (applied).
      const shown = async () => {
        const badge = page.getByTestId(`ftp-user-${USER}-apply`);
        const state = (await badge.count()) > 0 ? await badge.getAttribute('data-apply-status') : 'busy';
        return `${await rights.inputValue()} ${state}`;
      };
      await expect.poll(shown, { timeout: 60_000, interval: 250 }).toBe('read_only applied');
      await page.reload();
      await page.getByTestId(`ftp-user-${USER}-permissions`).waitFor();
      expect(await page.getByTestId(`ftp-user-${USER}-permissions`).inputValue()).toBe('read_only');
      expect(await page.getByTestId(`ftp-user-${USER}-enabled`).isChecked()).toBe(true);

      // The advanced settings: a range of 100 passive ports holds 50 clients, not 51.
      await openTab(page, serviceId, 'ftp-advanced');
      const clients = page.getByTestId('ftp-settings-max-clients');
      await clients.fill('51');
      let sent = 0;
      page.on('request', (request) => {
        if (request.method() === 'PUT' && request.url().includes('/api/v1/ftp/')) sent += 1;
      });
      await page.getByTestId('ftp-settings-submit').click();
      await page.getByText(/two ports for each client/).waitFor();
      expect(sent).toBe(0);
      await clients.fill('20');
      await page.getByTestId('ftp-settings-tls-required').check();
      await page.getByTestId('ftp-settings-submit').click();
      await page.getByTestId('ftp-settings-saved').waitFor();
      expect(sent).toBe(1);
      await page.getByTestId('service-tab-ftp').click();
      await page.getByTestId('ftp-tls').waitFor();
      await expect.poll(() => page.getByTestId('ftp-tls').innerText()).toMatch(/^TLS required/);
    },
  );
});
