// axe-core in the journeys' Chromium: the engine is added to every document a page opens (an init
// script, which the app's Content-Security-Policy does not apply to), then run on demand. Only
// what a person relying on assistive technology or contrast is blocked by fails: impact serious
// or critical.
import axe from 'axe-core';
import type { Page } from 'playwright-core';

export interface Violation {
  /** Where it was found: page, theme, language. */
  where: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

const FAILING_IMPACTS = new Set(['serious', 'critical']);

const requestsInFlight = new WeakMap<Page, Set<unknown>>();

/**
 * Makes axe available in every document `page` opens from now on, and keeps count of the page's
 * requests in flight for settle().
 */
export async function addAxe(page: Page): Promise<void> {
  const inFlight = new Set<unknown>();
  requestsInFlight.set(page, inFlight);
  page.on('request', (request) => inFlight.add(request));
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  await page.addInitScript({ content: axe.source });
}

const QUIET_MS = 150;

/**
 * Waits until the page has drawn what it shows once its data has arrived: the main landmark is
 * there, no request has been in flight for a moment (Playwright's `networkidle` waits 500 ms,
 * which over a hundred pages is most of the suite's time; a page that keeps asking, such as a
 * service being set up, gets a few seconds), and no loading spinner is left.
 */
export async function settle(page: Page): Promise<void> {
  await page.locator('main').first().waitFor();
  const inFlight = requestsInFlight.get(page);
  if (!inFlight) throw new Error('settle() needs addAxe(page) first');
  const deadline = Date.now() + 5_000;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (inFlight.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= QUIET_MS) break;
    await page.waitForTimeout(25);
  }
  await page.locator('.page-loading, .spinner').first().waitFor({ state: 'detached', timeout: 10_000 });
}

/** Serious and critical violations on the document shown now. */
export async function findViolations(page: Page, where: string): Promise<Violation[]> {
  const violations = await page.evaluate(async () => {
    const engine = (window as unknown as { axe: typeof axe }).axe;
    const results = await engine.run(document, { resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
  return violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact))
    .map((violation) => ({ where, ...violation }));
}

/** One line per violation and target, for a failure message a person can act on. */
export function describeViolations(violations: Violation[]): string {
  return violations
    .map(
      (v) =>
        `${v.where}: ${v.rule} (${v.impact}) ${v.help}\n${v.targets.map((target) => `    ${target}`).join('\n')}`,
    )
    .join('\n');
}
