// One Chromium per test file, a fresh context (storage, cookies) per test, and a record of every
// console error and failed page script so a journey fails when the page misbehaves silently.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { launchChromium } from '../../scripts/lib/chromium.ts';
import { startProduct, type RunningServer } from '../../scripts/lib/processes.ts';

export interface BrowserSession {
  readonly baseUrl: string;
  readonly dataDir: string;
  /** A new page in a new context (no storage, no cookies). */
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>;
}

/**
 * `product`: the product the pages open, when it is not the one the global setup started (a
 * journey that starts its own, e.g. with live workspaces). Read when a page is opened.
 */
export function useBrowser(product?: () => { baseUrl: string; dataDir: string }): BrowserSession {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    const found = problems.splice(0);
    expect(found, 'console errors or page errors').toEqual([]);
  });
  afterAll(async () => {
    // Not launched when an earlier beforeAll (a journey's own product starting) failed.
    await browser?.close();
  });

  const target = product ?? (() => ({ baseUrl: inject('baseUrl'), dataDir: inject('dataDir') }));
  return {
    get baseUrl() {
      return target().baseUrl;
    },
    get dataDir() {
      return target().dataDir;
    },
    async newPage(options = {}) {
      if (!browser) throw new Error('Chromium did not start');
      const context = await browser.newContext({
        baseURL: target().baseUrl,
        viewport: options.viewport ?? { width: 1280, height: 900 },
      });
      contexts.push(context);
      const page = await context.newPage();
      page.on('console', (message) => {
        // Chromium logs every 4xx answer as a console error; a refused password or an expired
        // link is the API working. Server errors and script errors still fail the journey.
        const expectedRefusal = /Failed to load resource: the server responded with a status of 4\d\d/;
        // Live journeys running beside this one add and remove workspaces' veth links on this
        // machine; Chromium takes each address change as a new network and drops the requests in
        // flight. Reads and a page's code (lazyRoute) are fetched again by the app; a journey that
        // needed a dropped one still fails on what it checks.
        const machineNetworkChanged = /Failed to load resource: net::ERR_NETWORK_CHANGED/;
        const text = message.text();
        if (message.type() === 'error' && !expectedRefusal.test(text) && !machineNetworkChanged.test(text)) {
          problems.push(`console: ${text}`);
        }
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      takeOverAfterLoads(page);
      return page;
    },
  };
}

/**
 * A landing page arrives prerendered, and its buttons answer only once the app has taken the page
 * over (apps/web/src/main.tsx). A journey acts as a visitor who waits for that: goto and reload
 * resolve once `#root` has lost `data-prerendered` (at once on every other page).
 */
function takeOverAfterLoads(page: Page): void {
  const takenOver = () => waitForTakeOver(page);
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await takenOver();
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await takenOver();
    return response;
  };
}

/** Resolves once the app has taken the page over (no prerendered `#root` left). */
export async function waitForTakeOver(page: Page): Promise<void> {
  await page.waitForSelector('#root:not([data-prerendered])', { state: 'attached' });
}

/**
 * A browser on a product of the journey's own, started for its describe block and stopped after
 * it: for journeys that buy room on the node, which the shared product's node no longer has once
 * the other journeys' workspaces are placed on it.
 */
export function useOwnProductBrowser(): BrowserSession {
  let product: RunningServer | undefined;
  beforeAll(async () => {
    product = await startProduct();
  }, 200_000);
  afterAll(async () => {
    await product?.stop();
  });
  return useBrowser(() => {
    if (!product) throw new Error('the journey’s own product did not start');
    return { baseUrl: product.url, dataDir: product.dataDir };
  });
}
