// The account journey of issue 3, as a customer lives it: register, open the link from the mail
// the product wrote to data/mail/, sign in, choose theme and language (kept after a reload and
// on the server), sign out, and be brought back to the page they wanted after signing in again.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { linkIn, waitForMail } from '../scripts/lib/mail.ts';
import { useBrowser } from './support/browser.ts';

const PASSWORD = 'Journey-Pass-42';

async function signIn(page: Page, email: string) {
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
}

async function serverSettings(page: Page): Promise<{ theme: string; language: string }> {
  return page.evaluate(async () => {
    const response = await fetch('/api/v1/settings/', {
      headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
    });
    return (await response.json()) as { theme: string; language: string };
  });
}

describe('accounts', () => {
  const browser = useBrowser();

  it('register → verify from the mail → sign in → theme and language → sign out → back where I was', async () => {
    const email = `journey-${Date.now()}@example.lt`;
    const page = await browser.newPage();

    await page.goto('/auth/register');
    await page.getByTestId('register-email').fill(email);
    await page.getByTestId('register-first-name').fill('Ona');
    await page.getByTestId('register-last-name').fill('Onaitė');
    await page.getByTestId('register-country').selectOption('LT');
    await page.getByTestId('register-password').fill(PASSWORD);
    await page.getByTestId('register-confirm-password').fill(PASSWORD);
    await page.getByTestId('register-submit').click();
    await page.waitForURL('**/auth/verify-email**');
    await page.getByTestId('verify-email-check-inbox').waitFor();

    // Not signed in until the address is verified: the app sends them back to verify it.
    await page.goto('/auth/login');
    await signIn(page, email);
    await page.waitForURL('**/auth/verify-email**');
    expect(await page.getByTestId('verify-email-message').innerText()).toMatch(/verify your email/i);

    const mail = await waitForMail(browser.dataDir, email, (m) => /verify/i.test(m.subject));
    await page.goto(linkIn(mail, '/auth/verify-email'));
    await page.getByTestId('verify-email-success').waitFor();

    await page.goto('/auth/login');
    await signIn(page, email);
    await page.waitForURL('**/dashboard/services');
    expect(await page.getByTestId('header-user-name').innerText()).toContain('Ona');

    await page.goto('/dashboard/settings');
    await page.getByTestId('settings-theme-dark').click();
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('dark');
    await page.getByTestId('settings-language-lt').click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('lt');
    await expect.poll(() => serverSettings(page)).toMatchObject({ theme: 'dark', language: 'lt' });

    await page.reload();
    await page.getByTestId('settings-theme').waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.locator('html').getAttribute('lang')).toBe('lt');
    expect(await page.getByTestId('settings-theme-dark').getAttribute('aria-pressed')).toBe('true');

    // The server's choice follows the account into a fresh browser.
    const elsewhere = await browser.newPage();
    await elsewhere.goto('/auth/login');
    await signIn(elsewhere, email);
    await elsewhere.waitForURL('**/dashboard/services');
    await expect.poll(() => elsewhere.locator('html').getAttribute('data-theme')).toBe('dark');
    await expect.poll(() => elsewhere.locator('html').getAttribute('lang')).toBe('lt');

    if (!(await page.getByTestId('header-logout').isVisible()))
      await page.getByTestId('header-user-menu').click();
    await page.getByTestId('header-logout').click();
    await page.waitForURL('**/auth/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await page.goto('/dashboard/settings');
    await page.waitForURL('**/auth/login');
    await signIn(page, email);
    await page.waitForURL('**/dashboard/settings');
  });

  it('resets a forgotten password through the mailed link', async () => {
    const email = `reset-${Date.now()}@example.lt`;
    const page = await browser.newPage();
    const registered = await page.request.post('/api/v1/auth/register', {
      data: { email, password: PASSWORD, firstName: 'Jonas', lastName: 'Jonaitis', country: 'LT' },
    });
    expect(registered.status()).toBe(201);

    await page.goto('/auth/forgot-password');
    await page.getByTestId('forgot-password-email').fill(email);
    await page.getByTestId('forgot-password-submit').click();
    await page.getByTestId('forgot-password-sent').waitFor();

    const mail = await waitForMail(browser.dataDir, email, (m) => /reset/i.test(m.subject));
    await page.goto(linkIn(mail, '/auth/reset-password'));
    await page.getByTestId('reset-password-password').fill('Another-Pass-77');
    await page.getByTestId('reset-password-confirm').fill('Another-Pass-77');
    await page.getByTestId('reset-password-submit').click();
    await page.waitForURL('**/dashboard/**');
  });
});
