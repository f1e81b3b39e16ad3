// Steps on a bought service's own page that the journeys on live workspaces share: opening it
// from the services list, moving between its tabs, and a workspace user made in the Users tab.
import type { Page } from 'playwright-core';

/** From the services list to the service's page; answers its address, as the overview shows it. */
export async function openService(page: Page, serviceId: string): Promise<string> {
  await page.getByTestId(`service-link-${serviceId}`).click();
  await page.waitForURL(`**/dashboard/services/${serviceId}`);
  return (await page.getByTestId('service-fact-ip').innerText()).trim();
}

/** One of the service's tabs, `tab` as it stands in the address (`nfs`, `ftp-advanced`…). */
export async function openTab(page: Page, serviceId: string, tab: string): Promise<void> {
  await page.getByTestId(`service-tab-${tab}`).click();
  await page.waitForURL(`**/dashboard/services/${serviceId}/${tab}`);
}

/** A workspace user made in the Users tab; resolves once the node has applied it. */
export async function addWorkspaceUser(page: Page, name: string, password: string): Promise<void> {
  await page.getByTestId('service-tab-users').click();
  await page.getByTestId('workspace-users-add').click();
  await page.getByTestId('user-create-name').fill(name);
  await page.getByTestId('user-create-password').fill(password);
  await page.getByTestId('user-create-confirm').fill(password);
  await page.getByTestId('user-create-submit').click();
  await page
    .locator(`[data-testid="user-${name}-apply"][data-apply-status="applied"]`)
    .waitFor({ timeout: 60_000 });
}
