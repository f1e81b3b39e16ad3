// Changing plans and extending, as a customer does it: after buying Starter, Plans → Change plan
// → MINI shows the prorated charge, is paid with a test card and the plans list shows the new
// plan; going back down to Starter is held until the downgrade is confirmed, then applies and
// leaves account credit; extending by another period uses that credit first and is paid. Starter
// and MINI, on a product of its own: a larger disk is put in place only where it fits, and the
// node's room is this machine's free disk less what its other workspaces were promised (the
// shared product's node holds every other journey's 50 GB workspaces, and OPTIMIZED's 500 GB fits
// on no test machine): the upgrade applied only when it was paid before placement.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useOwnProductBrowser } from './support/browser.ts';
import { choosePlan, payAndSucceed, payOnSandbox, signedInPage } from './support/checkout.ts';

const SUCCESS_CARD = '4242 4242 4242 4242';

/** A money text ("€35.00", "35,00 €") as a number. */
function euros(text: string): number {
  const digits = text.replace(/[^\d,.-]/g, '').replace(/,(\d{2})$/, '.$1');
  return Number(digits.replace(/,/g, ''));
}

async function openPlans(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Dashboard menu' }).getByRole('link', { name: 'Plans' }).click();
  await page.waitForURL('**/dashboard/plans');
  await page.locator('[data-testid^="plans-service-"]').first().waitFor();
}

async function planShown(page: Page): Promise<string> {
  return page.locator('[data-testid^="plans-plan-"]').first().innerText();
}

describe('plan change and extension', () => {
  const browser = useOwnProductBrowser();

  it('upgrades with a card, downgrades for credit after confirming, and extends using the credit', async () => {
    const page = await signedInPage(browser);

    // A Starter workspace, bought the way a customer buys it.
    await choosePlan(page, 'starter');
    await page.waitForURL('**/dashboard/payments/new/payment');
    await payAndSucceed(page, SUCCESS_CARD);
    await page.getByTestId('completion-services-link').click();
    await page.waitForURL('**/dashboard/services');

    // Plans → Change plan → MINI: the prorated charge, then its payment.
    await openPlans(page);
    expect(await planShown(page)).toBe('Starter');
    await page.locator('[data-testid^="plans-change-"]').first().click();
    await page.waitForURL('**/dashboard/plans/change?service=*');
    await page.getByTestId('plan-change-same').waitFor();
    await page.getByTestId('plan-change-product-mini').check();
    const total = page.getByTestId('plan-change-total');
    await total.waitFor();
    expect(euros(await page.getByTestId('plan-change-difference').innerText())).toBeGreaterThan(0);
    const charge = euros(await total.innerText());
    expect(charge).toBeGreaterThan(0);

    await page.getByTestId('plan-change-submit').click();
    await page.waitForURL(/\/dashboard\/payments\/plan-change\/[0-9a-f-]{36}\/payment$/);
    expect(await page.getByTestId('payment-to').innerText()).toContain('MINI');
    expect(euros(await page.getByTestId('payment-total').innerText())).toBe(charge);
    await page.getByTestId('payment-pay').click();
    await payOnSandbox(page, SUCCESS_CARD);
    expect(page.url()).toMatch(/\/dashboard\/payments\/plan-change\/[0-9a-f-]{36}\/payment\/complete/);
    await page.getByTestId('completion-success').waitFor({ timeout: 20_000 });
    await page.getByTestId('completion-plans-link').click();
    await page.waitForURL('**/dashboard/plans');
    await page.locator('[data-testid^="plans-service-"]').first().waitFor();
    expect(await planShown(page)).toBe('MINI');
    expect(await page.getByTestId('plans-credit').count()).toBe(0);

    // Back down to Starter: held until the downgrade is confirmed, then applied for credit.
    await page.locator('[data-testid^="plans-change-"]').first().click();
    await page.waitForURL('**/dashboard/plans/change?service=*');
    await page.getByTestId('plan-change-product-starter').check();
    const credit = euros(await page.getByTestId('plan-change-credit').innerText());
    expect(credit).toBeGreaterThan(0);
    await page.getByTestId('plan-change-submit').click();
    await page.getByTestId('plan-change-confirm-error').waitFor();
    expect(page.url()).toContain('/dashboard/plans/change');
    await page.getByTestId('plan-change-confirm').check();
    await page.getByTestId('plan-change-submit').click();
    await page.waitForURL('**/dashboard/plans');
    expect(await page.getByTestId('plans-changed').innerText()).toContain('Starter');
    expect(euros(await page.getByTestId('plans-credit-balance').innerText())).toBe(credit);
    expect(await planShown(page)).toBe('Starter');

    // Extend by three months: the credit is taken off first, the rest is paid by card.
    await page.locator('[data-testid^="plans-extend-"]').first().click();
    await page.waitForURL(/\/dashboard\/payments\/extend\/[0-9a-f-]{36}\/payment$/);
    const validUntil = await page.getByTestId('extension-valid-until').innerText();
    await page.getByTestId('plan-period-3m').check();
    await page.getByTestId('breakdown-credit').waitFor();
    expect(await page.getByTestId('extension-new-valid-until').innerText()).not.toBe(validUntil);
    await page.getByTestId('payment-pay').click();
    await page.waitForURL(/payments-sandbox|payment\/complete/);
    // Credit that covers it all goes straight to the completion page; the rest is paid by card.
    if (page.url().includes('payments-sandbox')) await payOnSandbox(page, SUCCESS_CARD);
    expect(page.url()).toMatch(/\/dashboard\/payments\/extend\/[0-9a-f-]{36}\/payment\/complete/);
    await page.getByTestId('completion-success').waitFor({ timeout: 20_000 });

    await page.getByTestId('completion-plans-link').click();
    await page.waitForURL('**/dashboard/plans');
    await page.locator('[data-testid^="plans-service-"]').first().waitFor();
    expect(await page.getByTestId('plans-credit').count()).toBe(0);
  });
});
