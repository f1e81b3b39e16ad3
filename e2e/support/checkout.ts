// Steps the payment journeys share: a signed-in customer, choosing MINI in the plan picker, paying
// on the sandbox provider's hosted card page, and finding the new service in the services list.
import type { Page } from 'playwright-core';
import { createVerifiedAccounts, signInTokens } from '../../scripts/lib/accounts.ts';
import type { BrowserSession } from './browser.ts';

/** The sandbox's card that pays. */
export const TEST_CARD = '4242 4242 4242 4242';

/** A new verified account, signed in in a new page (tokens stored as the app keeps them). */
export async function signedInCustomer(browser: BrowserSession): Promise<{ page: Page; email: string }> {
  const [email = ''] = await createVerifiedAccounts(browser.baseUrl, browser.dataDir, 1);
  return { page: await signedInAs(browser, email), email };
}

/** A new page signed in as the account `email` (tokens stored as the app keeps them). */
export async function signedInAs(browser: BrowserSession, email: string): Promise<Page> {
  const tokens = await signInTokens(browser.baseUrl, email);
  const page = await browser.newPage();
  await page.goto('/');
  await page.evaluate((stored) => {
    localStorage.setItem('token', stored.access_token);
    localStorage.setItem('refresh_token', stored.refresh_token);
  }, tokens);
  return page;
}

/** signedInCustomer's page, for the journeys that do not need the address. */
export async function signedInPage(browser: BrowserSession): Promise<Page> {
  return (await signedInCustomer(browser)).page;
}

/** Picks MINI with its defaults in the plan picker and continues. */
export async function chooseMini(page: Page): Promise<void> {
  await choosePlan(page, 'mini');
}

/** A signed-in customer picks plan `id` on the plans page and continues to its payment. */
export async function choosePlan(page: Page, id: string): Promise<void> {
  await page.goto('/auth/plans');
  await page.getByTestId(`plan-choose-${id}`).click();
  await page.getByTestId('breakdown-total').waitFor();
  await page.getByTestId('plan-continue').click();
}

/** A signed-in customer picks MINI and lands on our payment page for it. */
export async function openMiniPayment(page: Page): Promise<void> {
  await chooseMini(page);
  await page.waitForURL('**/dashboard/payments/new/payment');
}

/** Fills the sandbox card page with `card` and pays; resolves on the completion page. */
export async function payOnSandbox(page: Page, card: string): Promise<void> {
  await page.waitForURL('**/payments-sandbox/sessions/**');
  await page.getByTestId('sandbox-card').fill(card);
  await page.getByTestId('sandbox-exp-month').fill('12');
  await page.getByTestId('sandbox-exp-year').fill('40');
  await page.getByTestId('sandbox-cvc').fill('123');
  await page.getByTestId('sandbox-pay').click();
  await page.waitForURL('**/payment/complete**');
}

/** On our payment page: pays with `card` and waits for the completion page to say it succeeded. */
export async function payAndSucceed(page: Page, card = TEST_CARD): Promise<void> {
  await page.getByTestId('payment-pay').click();
  await payOnSandbox(page, card);
  await page.getByTestId('completion-success').waitFor({ timeout: 30_000 });
}

/** A signed-in customer buys MINI with the test card; resolves on the completion page. */
export async function buyMini(page: Page): Promise<void> {
  await openMiniPayment(page);
  await payAndSucceed(page);
}

/** From the completion page to the services list: the new service's id, once it is listed. */
export async function listedServiceId(page: Page): Promise<string> {
  await page.getByTestId('completion-services-link').click();
  await page.waitForURL('**/dashboard/services');
  const row = page.locator('[data-testid^="service-row-"]').first();
  await row.waitFor();
  return ((await row.getAttribute('data-testid')) ?? '').replace('service-row-', '');
}

/** Waits until the services list shows `serviceId` active: the node has set it up. */
export async function activeInList(page: Page, serviceId: string, timeout: number): Promise<void> {
  await page
    .locator(`[data-testid="service-status-${serviceId}"][data-status="active"]`)
    .waitFor({ timeout });
}
