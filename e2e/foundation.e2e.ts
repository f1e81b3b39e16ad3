// The foundation's promise, as a visitor sees it: the home page, the guard on the dashboard,
// the not-found page, and language and theme choices that survive a reload.
import { describe, expect, it } from 'vitest';
import { createVerifiedAccounts, signInTokens } from '../scripts/lib/accounts.ts';
import { useBrowser } from './support/browser.ts';

describe('foundation', () => {
  const browser = useBrowser();

  it('serves the home page with its calls to action', async () => {
    const page = await browser.newPage();
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await page.getByTestId('home-cta-plans').waitFor();
    expect(await page.getByTestId('home-cta-plans').getAttribute('href')).toBe('/auth/plans');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.locator('footer').count()).toBe(1);
  });

  it('sends a visitor from /dashboard to the sign-in page, remembering where they were going', async () => {
    const page = await browser.newPage();
    await page.goto('/dashboard');
    await page.waitForURL('**/auth/login');
    await page.getByTestId('login-form').waitFor();

    await page.goto('/dashboard/billing?page=2');
    await page.waitForURL('**/auth/login');
    const from = await page.evaluate(
      () => (window.history.state as { usr?: { from?: string } } | null)?.usr?.from,
    );
    expect(from).toBe('/dashboard/billing?page=2');
  });

  it('shows the not-found page with its five links for an unknown path', async () => {
    const page = await browser.newPage();
    await page.goto('/no/such/page');
    await page.getByTestId('not-found').waitFor();
    const links = {
      'not-found-dashboard': '/dashboard',
      'not-found-services': '/dashboard/services',
      'not-found-plans': '/dashboard/plans',
      'not-found-home': '/',
      'not-found-sign-in': '/auth/login',
    };
    for (const [testId, href] of Object.entries(links)) {
      expect(await page.getByTestId(testId).getAttribute('href'), testId).toBe(href);
    }
  });

  it('switches to Lithuanian and keeps it after a reload', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    const englishTitle = await page.locator('h1').innerText();
    await page.getByTestId('language-option-lt').click();
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('lt');
    const lithuanianTitle = await page.locator('h1').innerText();
    expect(lithuanianTitle).not.toBe(englishTitle);
    expect(await page.getByTestId('header-sign-in').innerText()).toMatch(/Prisijungti/i);

    await page.reload();
    await page.getByTestId('home-cta-plans').waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('lt');
    expect(await page.locator('h1').innerText()).toBe(lithuanianTitle);
    expect(await page.getByTestId('language-option-lt').getAttribute('aria-pressed')).toBe('true');
  });

  it('switches the theme and keeps it after a reload, and follows the system when asked', async () => {
    const page = await browser.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    expect(await page.locator('html').getAttribute('data-theme')).toBe('light');
    const lightBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);

    await page.getByTestId('theme-option-dark').click();
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('dark');
    const darkBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(darkBackground).not.toBe(lightBackground);

    await page.reload();
    await page.getByTestId('home-cta-plans').waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

    await page.getByTestId('theme-option-system').click();
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('system');
  });

  it('opens the dashboard side menu from its button on a phone-sized screen', async () => {
    const [email = ''] = await createVerifiedAccounts(browser.baseUrl, browser.dataDir, 1);
    const tokens = await signInTokens(browser.baseUrl, email);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto('/');
    await page.evaluate((stored) => {
      localStorage.setItem('token', stored.access_token);
      localStorage.setItem('refresh_token', stored.refresh_token);
    }, tokens);
    await page.goto('/dashboard');
    await page.waitForURL('**/dashboard/services');
    // The address changes as the redirect starts; the page is on screen once its code is here.
    await page.getByRole('heading', { level: 1, name: 'Services' }).waitFor();
    const button = page.getByTestId('dashboard-menu-button');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
  });
});
