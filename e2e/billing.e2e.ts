// Billing, as its issue describes it: after a purchase the invoice is listed on the billing page,
// filtered, previewed in a dialog and downloaded as a PDF; the payment confirmation carries it too.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { waitForMail } from '../scripts/lib/mail.ts';
import { useBrowser } from './support/browser.ts';
import { buyMini, signedInCustomer } from './support/checkout.ts';

describe('billing', () => {
  const browser = useBrowser();

  it(
    'after a purchase the invoice is listed, filtered, previewed and downloaded',
    { timeout: 90_000 },
    async () => {
      const { page, email } = await signedInCustomer(browser);
      await buyMini(page);

      // Listed: from the services list through the side menu.
      await page.getByTestId('completion-services-link').click();
      await page.waitForURL('**/dashboard/services');
      await page.getByRole('link', { name: 'Billing' }).click();
      await page.waitForURL('**/dashboard/billing');
      const rows = page.locator('[data-testid^="invoice-row-"]');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(1);
      // The number heads the row; the workspace's name (here the default: plan and short code) is the line under it.
      const [number = '', serviceLine = ''] = (await rows.first().locator('th').innerText())
        .trim()
        .split('\n');
      expect(serviceLine).toMatch(/^MINI [0-9a-f]{8}$/);
      expect(number).toMatch(/^DEB-\d{4}-\d{6}$/);
      const row = page.getByTestId(`invoice-row-${number}`);
      expect(await row.innerText()).toContain('New Service');
      expect(await row.innerText()).toContain('Paid');
      const total = (await page.getByTestId(`invoice-total-${number}`).innerText()).trim();
      expect(total).toMatch(/^€[\d,]+\.\d{2}$/);
      expect(await page.getByTestId('invoices-page').innerText()).toBe('Page 1 of 1 (1 total)');

      // Filtered: no renewal yet; the purchase comes back with its type.
      await page.getByLabel('Type').selectOption('RENEWAL');
      await page.getByTestId('invoice-filters-apply').click();
      await page.getByTestId('invoices-empty').waitFor();
      expect(await page.getByTestId('invoices-page').innerText()).toBe('Page 1 of 1 (0 total)');
      await page.getByLabel('Type').selectOption('PURCHASE');
      await page.getByTestId('invoice-filters-apply').click();
      await row.waitFor();
      await page.getByLabel('From').fill('2000-01-01');
      await page.getByLabel('To').fill('2000-12-31');
      await page.getByTestId('invoice-filters-apply').click();
      await page.getByTestId('invoices-empty').waitFor();
      await page.getByTestId('invoice-filters-clear').click();
      await row.waitFor();

      // Previewed in a dialog, with the same figures.
      await page.getByRole('button', { name: `Preview invoice ${number}` }).click();
      const dialog = page.getByRole('dialog', { name: `Invoice ${number}` });
      await dialog.waitFor();
      const frame = page.frameLocator('[data-testid="invoice-preview-frame"]');
      expect(await frame.getByTestId('invoice-number').innerText()).toBe(number);
      expect(await frame.getByTestId('invoice-total').innerText()).toContain(total);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // Downloaded as a real PDF.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: `Download invoice ${number} as PDF` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`${number}.pdf`);
      const file = await download.path();
      expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');

      // The payment confirmation carries the same PDF.
      const mail = await waitForMail(browser.dataDir, email, (m) => m.subject.includes(number));
      expect(mail.attachments.map((attachment) => attachment.filename)).toEqual([`${number}.pdf`]);
      expect(mail.attachments[0]?.content.subarray(0, 5).toString()).toBe('%PDF-');
    },
  );
});
