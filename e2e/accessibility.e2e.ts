// Accessibility, as issue 7 asks: every page of e2e/support/pages.ts — public, sign-in and the
// dashboard of a customer who has bought a service — and a few states of them (forms sent empty,
// dialogs open) checked with axe-core in the light and the dark theme in English, and in
// Lithuanian (light: the language changes words, not colours). Any serious or critical violation
// fails, listed with its rule, impact, elements and where it was found; so does any console error
// (browser.ts).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { csrf } from '../scripts/lib/accounts.ts';
import { addAxe, describeViolations, findViolations, settle, type Violation } from './support/axe.ts';
import { useBrowser } from './support/browser.ts';
import { buyMini, listedServiceId, signedInPage } from './support/checkout.ts';
import {
  AUTH_PAGES,
  dashboardPages,
  dashboardStates,
  PUBLIC_PAGES,
  SIGNED_OUT_STATES,
  type PageState,
} from './support/pages.ts';

type Theme = 'light' | 'dark';
type Language = 'en' | 'lt';

/** Each language is loaded once per page; the themes are then switched in place. */
const VARIANTS: Array<{ language: Language; themes: Theme[] }> = [
  { language: 'en', themes: ['light', 'dark'] },
  { language: 'lt', themes: ['light'] },
];

/**
 * Opens `path` (and clicks through to `state`) in `language`, and returns what axe finds in each
 * of `themes`, after checking the theme and language are the ones on screen. The theme is
 * switched the way a change in another tab reaches the app (a `storage` event), which keeps the
 * stored choice, so the next page loads in the first theme again.
 */
async function audit(
  page: Page,
  path: string,
  language: Language,
  themes: Theme[],
  state?: PageState,
): Promise<Violation[]> {
  const at = `${path}${state ? ` (${state.state})` : ''}`;
  try {
    await page.goto(path);
    await settle(page);
    for (const testId of state?.clicks ?? []) {
      await page.getByTestId(testId).click({ timeout: 20_000 });
      await settle(page);
    }
  } catch (error) {
    throw new Error(`${at} [${language}] (now at ${page.url()}): ${String(error)}`, { cause: error });
  }
  const html = page.locator('html');
  const violations: Violation[] = [];
  for (const theme of themes) {
    const where = `${at} [${theme}, ${language}]`;
    if ((await html.getAttribute('data-theme')) !== theme) {
      await page.evaluate((newValue) => {
        window.dispatchEvent(new StorageEvent('storage', { key: 'theme', newValue }));
      }, theme);
      // React applies the theme on a later task, and colours with a transition (0.01 ms with
      // reduced motion) only change on the frames after that: on a busy machine a fixed count of
      // frames was not enough (axe saw dark text on a still-light background), so wait for the
      // attribute and then for every transition it started to finish.
      await page.waitForFunction((expected) => document.documentElement.dataset.theme === expected, theme);
      await page.evaluate(async () => {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const transitions = document.getAnimations().filter((a) => a instanceof CSSTransition);
        await Promise.all(transitions.map((transition) => transition.finished.catch(() => undefined)));
      });
    }
    expect(await html.getAttribute('data-theme'), where).toBe(theme);
    expect(await html.getAttribute('lang'), where).toBe(language);
    let found = await findViolations(page, where);
    if (found.length > 0) {
      // A real violation is still there a moment later; one seen while the page was mid-change
      // (CI once caught muted text in a dark header against colours it could not reproduce) is not.
      await settle(page);
      await page.waitForTimeout(500);
      found = await findViolations(page, where);
    }
    violations.push(...found);
  }
  return violations;
}

/** A new page with axe, motion reduced so no pulse or spinner is caught half-faded. */
async function prepare(page: Page): Promise<Page> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await addAxe(page);
  return page;
}

function expectNone(violations: Violation[]): void {
  expect(violations.length, `accessibility violations:\n${describeViolations(violations)}`).toBe(0);
}

describe('accessibility', () => {
  const browser = useBrowser();

  it('public and sign-in pages, signed out', { timeout: 180_000 }, async () => {
    const page = await prepare(await browser.newPage());
    await page.goto('/');
    const violations: Violation[] = [];
    for (const { language, themes } of VARIANTS) {
      // What the header toggles keep; the next page load starts with it.
      await page.evaluate((stored) => {
        localStorage.setItem('theme', 'light');
        localStorage.setItem('language', stored);
      }, language);
      for (const path of [...PUBLIC_PAGES, ...AUTH_PAGES]) {
        violations.push(...(await audit(page, path, language, themes)));
      }
      for (const state of SIGNED_OUT_STATES) {
        violations.push(...(await audit(page, state.path, language, themes, state)));
      }
    }
    expectNone(violations);
  });

  it('dashboard pages of a customer who has bought a service', { timeout: 180_000 }, async () => {
    const page = await prepare(await signedInPage(browser));
    await buyMini(page);
    const completed = new URL(page.url());
    const serviceId = await listedServiceId(page);

    const ids = { serviceId, completionPath: `${completed.pathname}${completed.search}` };
    const pages = await dashboardPages(page, ids);
    const violations: Violation[] = [];
    for (const { language, themes } of VARIANTS) {
      // Signed in, the account's saved settings win over the browser's on every load (spec §3).
      await saveSettings(page, browser.baseUrl, { theme: 'light', language });
      for (const path of pages) {
        violations.push(...(await audit(page, path, language, themes)));
      }
      for (const state of dashboardStates(ids)) {
        violations.push(...(await audit(page, state.path, language, themes, state)));
      }
    }
    expectNone(violations);
  });
});

async function saveSettings(
  page: Page,
  baseUrl: string,
  settings: { theme: Theme; language: Language },
): Promise<void> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const { cookie, token: csrfToken } = await csrf(baseUrl);
  const response = await fetch(`${baseUrl}/api/v1/settings/`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token ?? ''}`,
      cookie,
      'x-csrf-token': csrfToken,
    },
    body: JSON.stringify(settings),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}
