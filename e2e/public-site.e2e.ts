// The public site as a visitor meets it (spec §1-2, §8): every public page in English and
// Lithuanian, the hero demo that rotates and pauses on hover, the cookie choice deciding whether
// analytics events leave the browser, and the contact form whose message reaches support's mail
// in the product's data folder.
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SHIPPED_FEATURES } from '../packages/contract/src/features.ts';
import { waitForMail } from '../scripts/lib/mail.ts';
import { useBrowser, waitForTakeOver } from './support/browser.ts';

/** Each public page and its main heading in English and Lithuanian. */
const PAGES: [path: string, en: string, lt: string][] = [
  ['/', 'Secure storage and network access for your team', ''],
  ['/about', 'About Debesis', 'Apie Debesis'],
  ['/contact', 'Contact us', 'Susisiekite su mumis'],
  ['/faq', 'Frequently asked questions', 'Dažniausiai užduodami klausimai'],
  ['/docs', 'Documentation', 'Dokumentacija'],
  ['/privacy', 'Privacy policy', 'Privatumo politika'],
  ['/terms', 'Terms of service', 'Paslaugų teikimo sąlygos'],
  // The VPN solution is offered once the VPN has shipped.
  ...(SHIPPED_FEATURES.includes('vpn')
    ? [['/solutions/secure-access', 'Secure access', 'Saugi prieiga'] satisfies [string, string, string]]
    : []),
  ['/solutions/team-drive', 'Team drive', 'Komandos diskas'],
  ['/solutions/business-storage', 'Business storage', 'Verslo saugykla'],
];

const ANALYTICS_PATH = '/api/v1/analytics/events';
/** Spec §2: the hero demo shows each of its four views for 4 seconds. */
const DEMO_INTERVAL_MS = 4000;

/** Starts in `language` with the cookie question already answered, as a returning visitor. */
async function preparePage(page: Page, options: { language?: 'en' | 'lt'; consent?: 'necessary' | 'all' }) {
  await page.addInitScript(
    ({ language, consent }) => {
      if (language) window.localStorage.setItem('language', language);
      if (consent) {
        window.localStorage.setItem(
          'cookie_consent',
          JSON.stringify({ choice: consent, decided_at: new Date().toISOString() }),
        );
      }
    },
    { language: options.language, consent: options.consent },
  );
}

function analyticsRequests(page: Page): { name: string; path: string; target?: string }[] {
  const sent: { name: string; path: string; target?: string }[] = [];
  page.on('request', (request: Request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === ANALYTICS_PATH) {
      sent.push(request.postDataJSON() as { name: string; path: string; target?: string });
    }
  });
  return sent;
}

const selectedTab = (page: Page) =>
  page.locator('[data-testid="home-demo"] [role="tab"][aria-selected="true"]').getAttribute('data-testid');

describe('public site', () => {
  const browser = useBrowser();

  it.each(['en', 'lt'] as const)('shows every public page with its heading in %s', async (language) => {
    const page = await browser.newPage();
    await preparePage(page, { language, consent: 'necessary' });
    for (const [path, en, lt] of PAGES) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      const heading = page.locator('h1');
      await heading.waitFor();
      const expected = language === 'en' ? en : lt;
      if (expected) await expect.poll(() => heading.innerText(), { timeout: 5000 }).toBe(expected);
      else expect((await heading.innerText()).length, path).toBeGreaterThan(10);
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      expect(await page.locator('footer').count()).toBe(1);
    }
  });

  it('paints the home page and the plan cards without the API client or the contract schemas', async () => {
    const page = await browser.newPage();
    await preparePage(page, { consent: 'necessary' });
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.url());
    });
    // axios and zod, as they stay named in the minified build.
    const heavy = async () => {
      const bodies = await Promise.all(
        scripts.map(async (url) => [url, await (await fetch(url)).text()] as const),
      );
      return bodies.filter(([, body]) => /AxiosError|\$ZodType/.test(body)).map(([url]) => url);
    };
    await page.goto('/');
    await page.getByTestId('home-cta-plans').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await heavy()).toEqual([]);
    await page.goto('/pricing');
    await page.getByTestId('plan-card-mini').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await heavy()).toEqual([]);
    // Choosing a plan brings the configurator, which prices through the API client.
    await page.getByTestId('plan-choose-mini').click();
    await page.getByTestId('plan-configurator').waitFor();
    expect((await heavy()).length).toBeGreaterThan(0);
  });

  it('fetches the plan list of /pricing with the page, once: the app takes the preloaded answer', async () => {
    const page = await browser.newPage();
    await preparePage(page, { language: 'lt', consent: 'necessary' });
    const planLists: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/products/') planLists.push(request.url());
    });
    const response = await page.goto('/pricing');
    expect(await response?.text()).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/api/v1/products/">',
    );
    await page.getByTestId('plan-card-mini').waitFor();
    await page.waitForLoadState('networkidle');
    // A preload the app's fetch did not match would show as a second request.
    expect(planLists).toHaveLength(1);
  });

  /** Holds the app's code back until `release` is called: the page is what its HTML paints. */
  async function holdAppCode(page: Page): Promise<() => void> {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/index-*.js', async (route) => {
      await released;
      await route.continue();
    });
    return release;
  }

  it('paints a landing page from its HTML before its code arrives, then hydrates it', async () => {
    const page = await browser.newPage();
    const release = await holdAppCode(page);
    const response = await page.mainFrame().goto('/pricing');
    const html = (await response?.text()) ?? '';
    // No script is asked for before the first paint; the app's code is named for later.
    expect(html).not.toMatch(/<script type="module"|rel="modulepreload"/);
    expect(html).toContain('<script type="application/json" id="app-code">');
    await page.locator('#root[data-prerendered]').waitFor({ state: 'attached' });
    expect(await page.locator('h1').innerText()).toBe('Choose your plan');
    expect(await page.getByTestId('cookie-consent').isVisible()).toBe(true);
    expect(await page.locator('html').getAttribute('data-prerender-differs')).toBeNull();
    const heading = await page.locator('h1').elementHandle();
    release();
    await waitForTakeOver(page);
    // Hydrated, not rendered afresh: the heading is the same element, and the buttons answer.
    expect(await heading?.evaluate((node) => node.isConnected)).toBe(true);
    await page.getByTestId('plan-card-mini').waitFor();
    await page.getByTestId('consent-necessary').click();
    await page.getByTestId('cookie-consent').waitFor({ state: 'detached' });
  });

  it('hides what a landing page was prerendered wrong for a returning visitor until the app renders it', async () => {
    const page = await browser.newPage();
    await preparePage(page, { language: 'lt', consent: 'necessary' });
    const release = await holdAppCode(page);
    await page.mainFrame().goto('/');
    await page.locator('#root[data-prerendered]').waitFor({ state: 'attached' });
    const differs = (await page.locator('html').getAttribute('data-prerender-differs'))?.split(' ');
    expect(differs).toEqual(expect.arrayContaining(['consent', 'language']));
    // Prerendered in English: hidden from a Lithuanian reader, and no cookie question to answer.
    expect(await page.locator('h1').isVisible()).toBe(false);
    expect(await page.getByTestId('cookie-consent').isVisible()).toBe(false);
    release();
    await waitForTakeOver(page);
    await page.locator('h1').waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('lt');
    expect(await page.getByTestId('cookie-consent').count()).toBe(0);
    await page.getByTestId('home-cta-plans').waitFor();
    expect(await page.getByTestId('home-cta-plans').innerText()).not.toBe('');
  });

  it('links the footer to every public page, and the solution cards to the solution pages', async () => {
    const page = await browser.newPage();
    await preparePage(page, { consent: 'necessary' });
    await page.goto('/');
    await page.getByTestId('home-cta-plans').waitFor();
    const footerLinks = await page
      .locator('footer nav a')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(footerLinks).toEqual([
      '/about',
      '/contact',
      ...(SHIPPED_FEATURES.includes('vpn') ? ['/solutions/secure-access'] : []),
      '/solutions/team-drive',
      '/solutions/business-storage',
      '/privacy',
      '/terms',
      '/docs',
      '/faq',
    ]);
    await page.getByTestId('solution-teamDrive').getByRole('link').click();
    await page.waitForURL('**/solutions/team-drive');
    await page.getByTestId('solution-cta-plans').waitFor();
    expect(await page.getByTestId('solution-cta-plans').getAttribute('href')).toBe('/auth/plans');
  });

  it('rotates the hero demo every 4 seconds and pauses it while the pointer is over it', async () => {
    const page = await browser.newPage();
    await preparePage(page, { consent: 'necessary' });
    // The page's clock stands still and moves only when told: the 4 seconds are checked to the
    // tenth, and the pauses cost no real time.
    await page.clock.install({ time: new Date('2026-11-21T10:00:00Z') });
    await page.clock.pauseAt(new Date('2026-11-21T10:00:01Z'));
    // The page's code loads on a frame and a timer once the prerendered page has painted
    // (preferences.js): the paused clock runs them, and the page is then the app's.
    await page.mainFrame().goto('/');
    await page.clock.runFor(100);
    await waitForTakeOver(page);
    await page.getByTestId('home-demo').waitFor();
    expect(await page.locator('[data-testid="home-demo"] [role="tablist"] [role="tab"]').count()).toBe(4);
    expect(await selectedTab(page)).toBe('home-demo-tab-overview');
    await page.clock.runFor(DEMO_INTERVAL_MS - 100);
    expect(await selectedTab(page)).toBe('home-demo-tab-overview');
    await page.clock.runFor(100);
    await expect
      .poll(() => selectedTab(page), { timeout: 2000, interval: 50 })
      .toBe('home-demo-tab-management');

    await page.getByTestId('home-demo-panel').hover();
    await page.clock.runFor(3 * DEMO_INTERVAL_MS);
    expect(await selectedTab(page)).toBe('home-demo-tab-management');

    await page.mouse.move(5, 5);
    await page.clock.runFor(DEMO_INTERVAL_MS);
    await expect
      .poll(() => selectedTab(page), { timeout: 2000, interval: 50 })
      .toBe('home-demo-tab-activity');

    await page.getByTestId('home-demo-tab-workspace').click();
    expect(await selectedTab(page)).toBe('home-demo-tab-workspace');
    expect(await page.getByTestId('home-demo-panel').getAttribute('data-tab')).toBe('workspace');
  });

  it('on a phone: the cookie question takes at most 15% of the first screen, the menu leads to the pages', async () => {
    const viewport = { width: 390, height: 844 };
    const page = await browser.newPage({ viewport });
    await page.goto('/');
    await waitForTakeOver(page);
    const banner = await page.getByTestId('cookie-consent').boundingBox();
    expect(banner?.height).toBeLessThanOrEqual(viewport.height * 0.15);
    // Both choices on screen, side by side under the sentence.
    const necessary = await page.getByTestId('consent-necessary').boundingBox();
    const all = await page.getByTestId('consent-all').boundingBox();
    expect(necessary?.y).toBe(all?.y);
    expect((all?.y ?? 0) + (all?.height ?? 0)).toBeLessThanOrEqual(viewport.height * 0.15);

    // The bar's links are hidden on a phone; its menu holds them.
    expect(await page.getByTestId('header-bar-pricing').isVisible()).toBe(false);
    await page.getByTestId('header-menu-button').click();
    await page.getByTestId('header-menu-pricing').click();
    await page.waitForURL('**/pricing');
    await page.getByTestId('plan-card-mini').waitFor();
    expect(await page.getByTestId('header-menu-pricing').isVisible()).toBe(false);
  });

  it('sends no analytics event with "necessary only"', async () => {
    const page = await browser.newPage();
    const sent = analyticsRequests(page);
    await page.goto('/');
    await page.getByTestId('cookie-consent').waitFor();
    await page.getByTestId('consent-necessary').click();
    await page.getByTestId('cookie-consent').waitFor({ state: 'detached' });
    await page.getByTestId('home-cta-pricing').click();
    await page.waitForURL('**/pricing');
    await page.goto('/faq');
    await page.locator('h1').waitFor();
    await page.waitForTimeout(1000);
    expect(sent).toEqual([]);

    // The choice stays after a reload and can be changed from the footer.
    await page.reload();
    await page.locator('h1').waitFor();
    expect(await page.getByTestId('cookie-consent').count()).toBe(0);
    await page.getByTestId('footer-cookie-settings').click();
    await page.getByTestId('cookie-consent').waitFor();
    expect(await page.getByTestId('consent-necessary').getAttribute('aria-pressed')).toBe('true');
  });

  it('sends page views and calls to action with "all", and the API stores them', async () => {
    const page = await browser.newPage();
    const sent = analyticsRequests(page);
    await page.goto('/');
    await page.getByTestId('cookie-consent').waitFor();
    const stored = page.waitForResponse(
      (response) => new URL(response.url()).pathname === ANALYTICS_PATH && response.status() === 202,
    );
    await page.getByTestId('consent-all').click();
    await stored;
    expect(sent).toEqual([{ name: 'page_view', path: '/', language: 'en' }]);

    await page.getByTestId('home-cta-plans').click();
    await page.waitForURL('**/auth/plans');
    await expect.poll(() => sent.length, { timeout: 5000 }).toBe(3);
    expect(sent.slice(1)).toEqual(
      expect.arrayContaining([
        { name: 'cta_click', path: '/', target: 'home-hero-plans', language: 'en' },
        { name: 'page_view', path: '/auth/plans', language: 'en' },
      ]),
    );
  });

  it('stores a contact message and mails it to support in the data folder', async () => {
    const page = await browser.newPage();
    await preparePage(page, { consent: 'necessary', language: 'lt' });
    await page.goto('/contact');
    await page.getByTestId('contact-form').waitFor();
    expect(await page.getByTestId('contact-reply-promise').innerText()).toBe('Atsakome per 24 valandas.');
    expect(await page.getByTestId('contact-hours').innerText()).toBe(
      'Pirmadienis–penktadienis, 9:00–18:00 EET',
    );
    expect(await page.getByTestId('contact-support-email').innerText()).toBe('support@debesis.localhost');

    await page.getByTestId('contact-submit').click();
    await page.getByText('Šis laukas privalomas').first().waitFor();

    const marker = `e2e-${Date.now()}`;
    await page.getByTestId('contact-name').fill('Ona Onaitė');
    await page.getByTestId('contact-email').fill(`${marker}@example.lt`);
    await page.getByTestId('contact-subject').fill(`NFS ${marker}`);
    await page.getByTestId('contact-message').fill('Kaip prijungti NFS eksportą Ubuntu serveryje?');
    const answer = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/v1/contact' && response.request().method() === 'POST',
    );
    await page.getByTestId('contact-submit').click();
    const response = await answer;
    expect(response.status()).toBe(201);
    const { id } = (await response.json()) as { id: string };
    await page.getByTestId('contact-sent').waitFor();

    const mail = await waitForMail(browser.dataDir, 'support@debesis.localhost', (received) =>
      received.subject.includes(marker),
    );
    expect(mail.subject).toBe(`Contact form: NFS ${marker}`);
    expect(mail.text).toContain(`From: Ona Onaitė <${marker}@example.lt>`);
    expect(mail.text).toContain('Language: Lithuanian');
    expect(mail.text).toContain(`Message id: ${id}`);
    expect(mail.text).toContain('Kaip prijungti NFS eksportą Ubuntu serveryje?');
  });
});
