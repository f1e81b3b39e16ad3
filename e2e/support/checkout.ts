// Steps the payment journeys share: a signed-in customer, choosing MINI in the plan picker, and
// paying on the sandbox provider's hosted card page.
import type { Page } from 'playwright-core';
import { createVerifiedAccounts, signInTokens } from '../../scripts/lib/accounts.ts';
import type { BrowserSession } from './browser.ts';

/** A new verified account, signed in in a new page (tokens stored as the app keeps them). */
export async function signedInPage(browser: BrowserSession): Promise<Page> {
  const [email = ''] = await createVerifiedAccounts(browser.baseUrl, browser.dataDir, 1);
  const tokens = await signInTokens(browser.baseUrl, email);
  const page = await browser.newPage();
  await page.goto('/');
  await page.evaluate((stored) => {
    localStorage.setItem('token', stored.access_token);
    localStorage.setItem('refresh_token', stored.refresh_token);
  }, tokens);
  return page;
}

/** Picks MINI with its defaults in the plan picker and continues. */
export async function chooseMini(page: Page): Promise<void> {
  await page.goto('/auth/plans');
  await page.getByTestId('plan-choose-mini').click();
  await page.getByTestId('breakdown-total').waitFor();
  await page.getByTestId('plan-continue').click();
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
