// Buying a workspace, as issue 4 describes it: a guest picks a plan, registers, verifies, signs
// in, pays on the sandbox provider's card page and sees the service; a declined card ends on the
// failed page with its reason and a retry succeeds; a card that never answers times out.
import { describe, expect, it } from 'vitest';
import { COMPLETION_POLL_MS, COMPLETION_TIMEOUT_MS } from '../apps/web/src/payments/completion-timing.ts';
import { linkIn, waitForMail } from '../scripts/lib/mail.ts';
import { useBrowser } from './support/browser.ts';
import {
  chooseMini,
  openMiniPayment,
  payAndSucceed,
  payOnSandbox,
  signedInPage,
} from './support/checkout.ts';

const PASSWORD = 'Purchase-Pass-42';

describe('purchase', () => {
  const browser = useBrowser();

  it('guest picks a plan → registers → verifies → signs in → pays → the service is listed', async () => {
    const email = `buyer-${Date.now()}@example.lt`;
    const page = await browser.newPage();
    await chooseMini(page);
    await page.waitForURL('**/auth/register**');
    expect(await page.evaluate(() => localStorage.getItem('selected_plan'))).toContain('"product_id":"mini"');

    await page.getByTestId('register-email').fill(email);
    await page.getByTestId('register-first-name').fill('Rasa');
    await page.getByTestId('register-last-name').fill('Rasaitė');
    await page.getByTestId('register-country').selectOption('LT');
    await page.getByTestId('register-password').fill(PASSWORD);
    await page.getByTestId('register-confirm-password').fill(PASSWORD);
    await page.getByTestId('register-submit').click();
    await page.waitForURL('**/auth/verify-email**');

    const mail = await waitForMail(browser.dataDir, email, (m) => /verify/i.test(m.subject));
    await page.goto(linkIn(mail, '/auth/verify-email'));
    await page.getByTestId('verify-email-success').waitFor();

    await page.goto('/auth/login');
    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/\/dashboard\/payments\/new\/[0-9a-f-]{36}\/payment/);
    expect(await page.getByTestId('payment-total').innerText()).toMatch(/€|EUR/);

    await payAndSucceed(page);

    await page.getByTestId('completion-services-link').click();
    await page.waitForURL('**/dashboard/services');
    const row = page.locator('[data-testid^="service-row-"]');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.first().innerText()).toContain('MINI');
  });

  it('a declined card shows why, and a retry succeeds', async () => {
    const page = await signedInPage(browser);
    await openMiniPayment(page);
    await page.getByTestId('payment-pay').click();
    await payOnSandbox(page, '4000 0000 0000 0002');
    await page.getByTestId('completion-failed').waitFor({ timeout: 20_000 });
    // The provider's reason in the reader's words (payment.declined.card_declined), said once.
    expect(await page.getByTestId('completion-failed-message').innerText()).toBe(
      'The card was declined. Please try again.',
    );

    await page.getByTestId('completion-retry').click();
    await page.waitForURL('**/dashboard/payments/retry/**/payment');
    await page.getByTestId('payment-retry').click();
    await payOnSandbox(page, '4242424242424242');
    await page.getByTestId('completion-success').waitFor({ timeout: 20_000 });
  });

  it('a payment that never completes ends on the timed-out page', { timeout: 90_000 }, async () => {
    const page = await signedInPage(browser);
    await openMiniPayment(page);
    await page.getByTestId('payment-pay').click();
    // The page gives up after COMPLETION_TIMEOUT_MS (60 s) of polling. The browser's clock is
    // taken over (it keeps ticking on its own) so the test can jump that minute, not wait it.
    await page.clock.install();
    await payOnSandbox(page, '4000 0000 0000 0259');
    await page.getByTestId('completion-processing').waitFor();
    // A few polls really happen first: the order stays pending.
    await page.waitForTimeout(3 * COMPLETION_POLL_MS);
    await expect(page.getByTestId('completion-processing').isVisible()).resolves.toBe(true);
    await page.clock.fastForward(COMPLETION_TIMEOUT_MS);
    await page.getByTestId('completion-timeout').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('completion-timeout').innerText()).toMatch(/timed out/i);
  });
});
