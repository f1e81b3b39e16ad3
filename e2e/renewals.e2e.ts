// Kept cards, automatic renewal, dunning and credit notes, as issue 38 (acceptance 6) describes
// them, in one customer's browser on a product of its own on PostgreSQL: MINI is bought with
// "keep this card" ticked and Billing shows the kept 4242; Replace through the provider's card form
// keeps 0341 instead (shown once the provider's event has come through the worker). With
// auto-renew switched off in the service's settings, a renewal run for a service ending in two days
// charges nothing; switched on again, the run tries the kept 0341, which declines: Billing lists an
// unpaid RENEWAL invoice and the owner is mailed a link; paying it there with 4242 marks it paid and
// moves the service's end one period on. An operator's refund of that payment (`ops payments
// refund`) issues a credit note, listed under Billing, whose preview names the invoice it credits.
//
// The renewals are run at once with the operator's `ops jobs run billing.renewals`, and the
// service's end is moved in the database: no clock is waited for.
//
// Needs the PostgreSQL server on 127.0.0.1:5432 (CI has it); elsewhere it is skipped with the
// reason printed. It makes a database of its own and drops it afterwards.
import type { Locator, Page } from 'playwright-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths } from '@debesis/pricing';
import { linkIn, waitForMail } from '../scripts/lib/mail.ts';
import { startProduct, type RunningServer } from '../scripts/lib/processes.ts';
import { useBrowser } from './support/browser.ts';
import { postgresUnavailable, runOps, useOwnDatabase } from './support/postgres.ts';
import {
  activeInList,
  listedServiceId,
  openMiniPayment,
  payAndSucceed,
  payOnSandbox,
  signedInCustomer,
} from './support/checkout.ts';

const RENEWS = '4242 4242 4242 4242';
const DECLINES_RENEWALS = '4000 0000 0000 0341';

const unavailable = await postgresUnavailable('renewals journey');

/**
 * `npm run ops -- <args>` against the product's database and data folder; throws with its output
 * when it fails.
 */
async function ops(product: RunningServer, databaseUrl: string, ...args: string[]): Promise<string> {
  // The product's own address too: a mail the command sends links back to it.
  const env = { DATABASE_URL: databaseUrl, DATA_DIR: product.dataDir, PUBLIC_URL: product.url };
  const run = await runOps(args, env, { timeoutMs: 60_000, retryAfterMs: 1000 });
  if (!run.ok) throw new Error(`ops ${args.join(' ')} failed:\n${run.output}`);
  return run.output;
}

/** Opens Billing and waits until its invoice list has drawn. */
async function openBilling(page: Page): Promise<void> {
  await page.goto('/dashboard/billing');
  await page.locator('[data-testid="invoice-table"], [data-testid="invoices-empty"]').first().waitFor();
}

/** Billing's invoice rows (invoices and credit notes). */
function invoiceRows(page: Page): Locator {
  return page.locator('[data-testid^="invoice-row-"]');
}

/**
 * The kept card as Billing's panel shows it, once `last4` is shown: the panel reads it once, so
 * the page is reloaded (a customer's F5) until the provider's event has come through the worker.
 */
async function keptCardShown(page: Page, last4: string): Promise<void> {
  const shown = page.locator('[data-testid="payment-method-last4"]', { hasText: last4 });
  for (let attempt = 0; ; attempt += 1) {
    try {
      await shown.waitFor({ timeout: 2_000 });
      return;
    } catch (error) {
      if (attempt >= 10) throw error;
      await openBilling(page);
    }
  }
}

describe.skipIf(unavailable !== undefined)(
  'kept cards, renewal, dunning and credit notes',
  { timeout: 180_000 },
  () => {
    const ownDatabase = useOwnDatabase('e2e_renewals');
    let databaseUrl = '';
    let product: RunningServer | undefined;
    let db: pg.Client | undefined;
    const browser = useBrowser(() => ({ baseUrl: product!.url, dataDir: product!.dataDir }));

    beforeAll(async () => {
      databaseUrl = ownDatabase();
      product = await startProduct({ DATABASE_URL: databaseUrl });
      db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
    }, 120_000);

    afterAll(async () => {
      await db?.end();
      await product?.stop();
    }, 60_000);

    /** One value of the product's database. */
    async function one<T>(sql: string, values: unknown[] = []): Promise<T> {
      const { rows } = await db!.query<{ value: T }>(sql, values);
      if (rows.length === 0) throw new Error(`no row: ${sql}`);
      return rows[0]!.value;
    }

    it('keeps a card, replaces it, renews only when on, dunns a decline and credits a refund', async () => {
      const { page, email } = await signedInCustomer(browser);

      // 1. MINI, paid with 4242 with "keep this card" ticked on our payment page.
      await openMiniPayment(page);
      await page.getByTestId('payment-keep-card').check();
      await payAndSucceed(page, RENEWS);
      const serviceId = await listedServiceId(page);
      // Only a running service is renewed: the node sets it up first.
      await activeInList(page, serviceId, 60_000);

      await openBilling(page);
      await keptCardShown(page, '4242');
      expect(await page.getByTestId('payment-method-brand').innerText()).toBe('Visa');
      expect(await page.getByTestId('payment-method-expiry').innerText()).toContain('12/2040');
      await expect.poll(() => invoiceRows(page).count(), { timeout: 10_000 }).toBe(1);

      // 2. Replaced from Billing through the provider's card form (nothing charged); the panel
      // asks again on its return until the provider's event has come through the worker.
      await page.getByTestId('payment-method-replace').click();
      await page.waitForURL('**/payments-sandbox/setups/**');
      await page.getByTestId('sandbox-card').fill(DECLINES_RENEWALS);
      await page.getByTestId('sandbox-exp-month').fill('11');
      await page.getByTestId('sandbox-exp-year').fill('39');
      await page.getByTestId('sandbox-cvc').fill('123');
      await page.getByTestId('sandbox-save').click();
      await page.waitForURL('**/dashboard/billing?payment_method=saved');
      await page.getByTestId('payment-method-saved').waitFor();
      await page
        .locator('[data-testid="payment-method-last4"]', { hasText: '0341' })
        .waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('payment-method-expiry').innerText()).toContain('11/2039');

      // 3. Auto-renew off: a run for a service ending in two days charges nothing.
      const settings = `/dashboard/services/${serviceId}/settings`;
      await page.goto(settings);
      const autoRenew = page.getByTestId('service-auto-renew');
      await autoRenew.waitFor();
      expect(await autoRenew.isChecked()).toBe(true);
      await autoRenew.uncheck();
      await page.getByTestId('service-renewal-submit').click();
      await page.getByTestId('service-renewal-saved').waitFor();
      await page.reload();
      await autoRenew.waitFor();
      expect(await autoRenew.isChecked(), 'auto-renew saved off').toBe(false);

      await db!.query("update services set valid_until = now() + interval '2 days' where id = $1", [
        serviceId,
      ]);
      await ops(product!, databaseUrl, 'jobs', 'run', 'billing.renewals');
      expect(Number(await one<string>('select count(*) as value from sandbox_charges'))).toBe(0);
      expect(Number(await one<string>('select count(*) as value from service_renewals'))).toBe(0);
      await openBilling(page);
      await expect.poll(() => invoiceRows(page).count(), { timeout: 10_000 }).toBe(1);

      await page.goto(settings);
      await autoRenew.waitFor();
      await autoRenew.check();
      await page.getByTestId('service-renewal-submit').click();
      await page.getByTestId('service-renewal-saved').waitFor();

      // 4. Auto-renew on: the kept 0341 declines, the invoice is issued unpaid and mailed.
      const endBefore = await one<Date>('select valid_until as value from services where id = $1', [
        serviceId,
      ]);
      await ops(product!, databaseUrl, 'jobs', 'run', 'billing.renewals');
      const renewal = await one<{ id: string; number: string; status: string }>(
        "select json_build_object('id', id, 'number', number, 'status', status) as value from invoices where type = 'RENEWAL'",
      );
      expect(renewal.status).toBe('unpaid');
      await openBilling(page);
      const renewalRow = page.getByTestId(`invoice-row-${renewal.number}`);
      await renewalRow.waitFor();
      expect(await renewalRow.locator('[data-type]').getAttribute('data-type')).toBe('RENEWAL');
      expect(await renewalRow.locator('[data-status]').getAttribute('data-status')).toBe('unpaid');

      const mail = await waitForMail(browser.dataDir, email, (m) =>
        m.text.includes(`/dashboard/billing/invoices/${renewal.id}/pay`),
      );
      const payLink = linkIn(mail, `/dashboard/billing/invoices/${renewal.id}/pay`);
      await page.goto(payLink);
      await page.getByTestId('pay-invoice-summary').waitFor();
      expect(await page.getByTestId('pay-invoice-summary').innerText()).toContain(renewal.number);
      await page.getByTestId('pay-invoice-submit').click();
      await payOnSandbox(page, RENEWS);
      await page.getByTestId('completion-success').waitFor({ timeout: 30_000 });

      await openBilling(page);
      await page.locator(`[data-testid="invoice-row-${renewal.number}"] [data-status="paid"]`).waitFor();
      const months = await one<number>(
        `select p.months as value from services s
           join product_periods p on p.product_id = s.product_id and p.id = s.period_id where s.id = $1`,
        [serviceId],
      );
      const endAfter = await one<Date>('select valid_until as value from services where id = $1', [
        serviceId,
      ]);
      expect(endAfter.toISOString(), 'the service ends one period later').toBe(
        addMonths(endBefore, months).toISOString(),
      );

      // 5. The operator refunds the renewal's payment: a credit note on that invoice.
      const sessionId = await one<string>(
        `select s.id as value from payment_sessions s join invoices i on i.order_id = s.order_id
          where i.id = $1 and s.status = 'succeeded'`,
        [renewal.id],
      );
      await ops(product!, databaseUrl, 'payments', 'refund', sessionId);
      const creditNote = await one<string>(
        "select number as value from invoices where kind = 'credit_note' and credited_invoice_id = $1",
        [renewal.id],
      );
      await openBilling(page);
      const noteRow = page.getByTestId(`invoice-row-${creditNote}`);
      await noteRow.waitFor();
      await noteRow.locator('[data-kind="credit_note"]').waitFor();
      await page.getByTestId(`invoice-preview-${creditNote}`).click();
      await page.getByTestId('invoice-preview').waitFor();
      const frame = page.frameLocator('[data-testid="invoice-preview-frame"]');
      expect(await frame.getByTestId('invoice-number').innerText()).toBe(creditNote);
      expect(await frame.locator('dl').innerText()).toContain(renewal.number);
      await page.getByTestId('invoice-preview-close').click();
    });
  },
);
