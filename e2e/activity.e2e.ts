// The activity log, as its issue describes it: after signing in and buying a service, the
// services list sums the account up, and the activity page lists the sign-in (with its address)
// in the login history and "Order created" and "Payment completed" in the management history,
// in pages, each with a sentence and its service by name; the service page's Activity tab shows its
// changes and its log with the storage node's lines in words; on a phone the entries are cards
// and nothing scrolls sideways.
import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.ts';
import { buyMini, signedInPage } from './support/checkout.ts';

describe('activity', () => {
  const browser = useBrowser();

  it(
    'lists the sign-in in the login history and the purchase in the management history, in pages',
    { timeout: 120_000 },
    async () => {
      const page = await signedInPage(browser);
      await buyMini(page);

      // The services list sums the account up above the list.
      await page.getByTestId('completion-services-link').click();
      await page.waitForURL('**/dashboard/services');
      const summary = page.getByTestId('dashboard-summary');
      await summary.waitFor();
      expect(await summary.getByTestId('summary-services-total').innerText()).toBe('1');
      expect(await summary.getByTestId('summary-unpaid-count').innerText()).toBe('0');

      // Management history: the order and its payment, newest first, coloured by tone.
      await page.getByRole('link', { name: 'Activity' }).click();
      await page.waitForURL('**/dashboard/activity');
      const management = page.getByTestId('activity-list-management');
      await management.waitFor();
      // The worker places the paid service on a node a moment after the payment; its entry must be
      // in before the settings below are saved, or it would lead the list they are meant to lead.
      await expect
        .poll(
          async () => {
            await page.reload();
            await management.waitFor();
            return management.locator('[data-action="service placed"]').count();
          },
          { timeout: 60_000, interval: 1_000 },
        )
        .toBe(1);
      const ordered = management.locator('[data-action="order created"]');
      const paid = management.locator('[data-action="payment completed"]');
      expect(await ordered.count()).toBe(1);
      expect(await paid.count()).toBe(1);
      expect(await ordered.innerText()).toContain('Order created');
      expect(await paid.innerText()).toContain('Payment completed');
      expect(await paid.locator('.badge').getAttribute('class')).toContain('badge--success');
      // The order came from this browser's address; both happened a moment ago.
      expect(await ordered.locator('.activity-ip').innerText()).toMatch(
        /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/,
      );
      expect(await paid.locator('time').innerText()).toMatch(/just now|minute/);
      // What it did in words, and the service by its name.
      expect(await ordered.innerText()).toMatch(/New service: MINI, €[\d,.]+/);
      expect(await paid.innerText()).toMatch(/€[\d,.]+ paid by test card/);
      const serviceLink = paid.getByRole('link', { name: /^Service: / });
      expect(await serviceLink.innerText()).toContain('MINI');
      expect(await management.locator('[data-action="user logged in"]').count()).toBe(0);

      // Login history: the sign-in with its address.
      await page.getByTestId('activity-view-login').click();
      const logins = page.getByTestId('activity-list-login');
      await logins.waitFor();
      const signIn = logins.locator('[data-action="user logged in"]').first();
      expect(await signIn.innerText()).toContain('Signed in');
      expect(await signIn.locator('.activity-ip').innerText()).toMatch(
        /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/,
      );
      expect(await logins.locator('[data-action="order created"]').count()).toBe(0);

      // Enough changes for two pages of ten: the settings saved a few times more.
      const saved = await page.evaluate(async () => {
        const csrf = /(?:^|; )csrf_token=([^;]*)/.exec(document.cookie)?.[1] ?? '';
        const statuses: number[] = [];
        for (let index = 0; index < 10; index += 1) {
          const response = await fetch('/api/v1/settings/', {
            method: 'PUT',
            headers: {
              authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
              'content-type': 'application/json',
              'x-csrf-token': decodeURIComponent(csrf),
            },
            body: JSON.stringify({ notifications: { browser: index % 2 === 0 } }),
          });
          statuses.push(response.status);
        }
        return statuses;
      });
      expect(saved.every((status) => status === 200)).toBe(true);

      await page.reload();
      await page.getByTestId('activity-list-management').waitFor();
      await page.getByLabel('Per page').selectOption('10');
      const pageText = page.getByTestId('activity-page');
      await expect.poll(() => pageText.innerText()).toMatch(/^Page 1 of 2 \(\d+ total\)$/);
      const total = Number(/\((\d+) total\)/.exec(await pageText.innerText())?.[1]);
      expect(total).toBeGreaterThanOrEqual(12);
      expect(await page.getByTestId('activity-list-management').locator('tbody tr').count()).toBe(10);
      // Newest first: the settings just saved lead the first page.
      expect(
        await page
          .getByTestId('activity-list-management')
          .locator('tbody tr')
          .first()
          .getAttribute('data-action'),
      ).toBe('settings updated');

      await page.getByTestId('activity-next').click();
      await expect.poll(() => pageText.innerText()).toBe(`Page 2 of 2 (${total} total)`);
      const second = page.getByTestId('activity-list-management');
      expect(await second.locator('tbody tr').count()).toBe(total - 10);
      expect(await second.locator('[data-action="payment completed"]').count()).toBe(1);
      expect(await page.getByTestId('activity-next').isDisabled()).toBe(true);

      await page.getByTestId('activity-previous').click();
      await expect.poll(() => pageText.innerText()).toBe(`Page 1 of 2 (${total} total)`);

      // On a phone: a list of cards (no table header), nothing wider than the screen.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByTestId('activity-list-management').waitFor();
      expect(await page.locator('.activity-table thead').isVisible()).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.setViewportSize({ width: 1280, height: 900 });

      // The service's own Activity tab: its changes, and its log with the node's line in words.
      await page.getByTestId('activity-previous').waitFor();
      await page.getByTestId('activity-next').click();
      await page
        .getByTestId('activity-list-management')
        .locator('[data-action="payment completed"]')
        .waitFor();
      await page
        .getByTestId('activity-list-management')
        .locator('[data-action="payment completed"]')
        .getByRole('link', { name: /^Service: / })
        .click();
      await page.getByTestId('service-tab-activity').click();
      await page.waitForURL('**/activity');
      const changes = page.getByTestId('service-activity-changes');
      await changes.waitFor();
      // The card fills once its request answers: asked until then, not read at once.
      await expect.poll(() => changes.locator('[data-action="service created"]').count()).toBe(1);
      await page.getByTestId('service-activity-view-log').click();
      const log = page.getByTestId('service-log');
      await log.waitFor();
      expect(await log.locator('[data-code="generation_applied"]').first().innerText()).toContain(
        'The storage node applied the settings (version 1)',
      );
      expect(await log.innerText()).not.toContain('applied generation');
    },
  );
});
