// The purchase journey on a phone (390×844) and a laptop (1366×900), in English and Lithuanian
// (issue 13, acceptance 2): a signed-in customer chooses MINI, pays with the sandbox card and
// then opens every dashboard page. On each page at each size the page never scrolls sideways
// (scrollWidth <= innerWidth); the public pages (/docs with its long commands) neither, on the
// phone. On the phone, the summary cards leave the services list on the first screen and the
// service's tab row shows that it scrolls. Every page is saved as a screenshot to look at:
// SCREENSHOT_DIR, else a folder in the system's temporary directory (printed).
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createVerifiedAccounts, csrf, signInTokens } from '../scripts/lib/accounts.ts';
import { addAxe, settle } from './support/axe.ts';
import { useBrowser, type BrowserSession } from './support/browser.ts';
import { listedServiceId, openMiniPayment, payAndSucceed } from './support/checkout.ts';
import { dashboardPages, PUBLIC_PAGES } from './support/pages.ts';

const SIZES = {
  phone: { width: 390, height: 844 },
  laptop: { width: 1366, height: 900 },
} as const;
type Size = keyof typeof SIZES;
type Language = 'en' | 'lt';

const SHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'debesis-screens');
mkdirSync(SHOTS, { recursive: true });

/** A page at `size`, signed in as a new verified account whose saved language is `language`. */
async function customerPage(browser: BrowserSession, size: Size, language: Language): Promise<Page> {
  const [email = ''] = await createVerifiedAccounts(browser.baseUrl, browser.dataDir, 1);
  const tokens = await signInTokens(browser.baseUrl, email);
  // Signed in, the account's saved settings win over the browser's (spec §3).
  const { cookie, token } = await csrf(browser.baseUrl);
  const saved = await fetch(`${browser.baseUrl}/api/v1/settings/`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${tokens.access_token}`,
      cookie,
      'x-csrf-token': token,
    },
    body: JSON.stringify({ language }),
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
  const page = await browser.newPage({ viewport: SIZES[size] });
  await addAxe(page);
  await page.goto('/');
  await page.evaluate(
    ({ stored, lang }) => {
      localStorage.setItem('token', stored.access_token);
      localStorage.setItem('refresh_token', stored.refresh_token);
      localStorage.setItem('language', lang);
      localStorage.setItem(
        'cookie_consent',
        JSON.stringify({ choice: 'necessary', decided_at: new Date().toISOString() }),
      );
    },
    { stored: tokens, lang: language },
  );
  return page;
}

/** How far the page scrolls sideways (0: it does not), and what sticks out when it does. */
async function sideways(page: Page): Promise<{ overflow: number; widest: string[] }> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const overflow = document.documentElement.scrollWidth - width;
    const widest =
      overflow <= 0
        ? []
        : Array.from(document.querySelectorAll<HTMLElement>('body *'))
            .filter((element) => element.getBoundingClientRect().right > width + 0.5)
            .slice(0, 5)
            .map(
              (element) =>
                `${element.tagName.toLowerCase()}.${element.className} → ${element.getBoundingClientRect().right}`,
            );
    return { overflow, widest };
  });
}

function shotName(size: Size, language: Language, path: string): string {
  const name = path
    .replace(/\?.*$/, '')
    .replace(/[0-9a-f-]{36}/g, 'ID')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '');
  return join(SHOTS, `${size}-${language}-${name || 'home'}.png`);
}

async function look(
  page: Page,
  size: Size,
  language: Language,
  path: string,
  problems: string[],
): Promise<void> {
  await settle(page);
  expect(await page.locator('html').getAttribute('lang'), path).toBe(language);
  await page.screenshot({ path: shotName(size, language, path), fullPage: true });
  const { overflow, widest } = await sideways(page);
  if (overflow > 0)
    problems.push(`${path} [${size}, ${language}] scrolls ${overflow}px sideways: ${widest.join('; ')}`);
}

/** Buys MINI on `page`; answers the dashboard ids of the paid service. */
async function buy(page: Page, size: Size, language: Language, problems: string[]) {
  await openMiniPayment(page);
  await page.getByTestId('payment-pay').waitFor();
  await look(page, size, language, '/dashboard/payments/new/payment', problems);
  await payAndSucceed(page);
  const completed = new URL(page.url());
  const serviceId = await listedServiceId(page);
  return { serviceId, completionPath: `${completed.pathname}${completed.search}` };
}

describe('screens: the purchase journey on a phone and a laptop', () => {
  const browser = useBrowser();

  for (const size of ['phone', 'laptop'] as const) {
    for (const language of ['en', 'lt'] as const) {
      it(
        `${size} (${SIZES[size].width}×${SIZES[size].height}), ${language}: buys a workspace, and no page scrolls sideways`,
        { timeout: 180_000 },
        async () => {
          const page = await customerPage(browser, size, language);
          const problems: string[] = [];
          const ids = await buy(page, size, language, problems);
          for (const path of await dashboardPages(page, ids)) {
            await page.goto(path);
            await look(page, size, language, path, problems);
          }
          if (size === 'phone') {
            // The summary cards leave the start of the services list on the first screen.
            await page.goto('/dashboard/services');
            await page.getByTestId('dashboard-summary').waitFor();
            await settle(page);
            const listTop = await page
              .getByTestId('service-list')
              .evaluate((list) => list.getBoundingClientRect().top);
            expect(listTop, 'the services list starts on the first screen').toBeLessThan(
              SIZES.phone.height - 100,
            );

            // The service's tab row scrolls inside itself, with a shade at the edge as the hint.
            await page.goto(`/dashboard/services/${ids.serviceId}`);
            const tabs = page.locator('.service-tabs');
            await tabs.waitFor();
            const row = await tabs.evaluate((element) => ({
              overflowX: getComputedStyle(element).overflowX,
              background: getComputedStyle(element).backgroundImage,
            }));
            expect(row.overflowX).toBe('auto');
            expect(row.background).toContain('radial-gradient');

            // The public pages, /docs with its long commands first among them, fit the phone too.
            for (const path of PUBLIC_PAGES) {
              await page.goto(path);
              await look(page, size, language, path, problems);
            }
          }
          expect(problems).toEqual([]);
        },
      );
    }
  }
});
