// The daily job that mails the owner of a kept card in its expiry month: once per card, in the
// owner's language, a replaced card mailed about in its own time; and the worker runs it from
// the queue into the mail folder.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { MailMessage } from '../../mail/mailer.ts';
import { createTestContext, injectWithCsrf, type TestContext, useTestContext } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import { startWorker } from '../../worker.ts';
import { createUsersQueries } from '../users/users.queries.ts';
import { createCardExpiryMailer } from './card-expiry.ts';
import { paymentMethods } from './payment-methods.table.ts';
import { createPaymentMethodsQueries } from './payment-methods.queries.ts';
import { scheduledJob } from '../../jobs/schedules.ts';
import { testWorkerDeps } from '../../test/worker.ts';

describe('the expiring-card mail', () => {
  const ctx = useTestContext();

  /** Keeps a card for the account, as a provider event would. */
  async function keepCard(accountId: string, expMonth: number, expYear: number, last4 = '4242') {
    const kept = await createPaymentMethodsQueries(ctx.database.db).keep({
      accountId,
      provider: 'sandbox',
      customerRef: `cus_sb_${accountId.replace(/-/g, '')}`,
      methodRef: `pm_sb_ok_${last4}${expMonth}${expYear}${Date.now()}`,
      brand: 'visa',
      last4,
      expMonth,
      expYear,
      createdAt: new Date(),
    });
    if (kept.outcome !== 'kept') throw new Error('card not kept');
    return kept.kept;
  }

  function mailer(now: Date, sent: MailMessage[]) {
    return createCardExpiryMailer({
      db: ctx.database.db,
      users: createUsersQueries(ctx.database.db),
      sendMail: async (message) => {
        sent.push(message);
      },
      publicUrl: 'https://debesis.test',
      now: () => now,
    });
  }

  it('mails once in the card’s expiry month, not before, and a new card again in its own month', async () => {
    const owner = await signedInUser(ctx);
    const card = await keepCard(owner.user.id, 12, 2030);
    const sent: MailMessage[] = [];
    // November: the card still has a month after this one.
    await mailer(new Date('2030-11-30T23:00:00Z'), sent).run();
    expect(sent.filter((message) => message.to === owner.user.email)).toHaveLength(0);
    // December: it works until the month ends; the owner is told now.
    const december = mailer(new Date('2030-12-01T08:23:00Z'), sent);
    await december.run();
    const mine = () => sent.filter((message) => message.to === owner.user.email);
    expect(mine()).toHaveLength(1);
    const mail = mine()[0]!;
    expect(mail.id).toBe(`card-expiry-${card.id}`);
    expect(mail.subject).toBe('Your kept card is about to expire – Debesis');
    expect(mail.text).toContain('Visa •••• 4242');
    expect(mail.text).toContain('12/2030');
    expect(mail.text).toContain('https://debesis.test/dashboard/billing');
    // The next days of the month: nothing more.
    await december.run();
    await mailer(new Date('2030-12-20T08:23:00Z'), sent).run();
    expect(mine()).toHaveLength(1);

    // A replacing card expiring the same month is another card: mailed about once too.
    await keepCard(owner.user.id, 12, 2030, '0341');
    await mailer(new Date('2030-12-21T08:23:00Z'), sent).run();
    expect(mine()).toHaveLength(2);
    expect(mine()[1]?.text).toContain('•••• 0341');
  });

  it('writes Lithuanian to a Lithuanian account, and says “expired” when the month went by unmailed', async () => {
    const owner = await signedInUser(ctx);
    await injectWithCsrf(ctx.app, {
      method: 'PUT',
      url: '/api/v1/settings/',
      headers: owner.auth,
      payload: { language: 'lt' },
    });
    await keepCard(owner.user.id, 6, 2029);
    const sent: MailMessage[] = [];
    await mailer(new Date('2029-06-15T08:23:00Z'), sent).run();
    const mail = sent.find((message) => message.to === owner.user.email);
    expect(mail?.subject).toBe('Jūsų išsaugotos kortelės galiojimas baigiasi – Debesis');
    expect(mail?.text).toContain('galioja tik iki šio mėnesio pabaigos (06/2029)');
    expect(mail?.html).toContain('<html lang="lt">');

    const late = await signedInUser(ctx);
    await keepCard(late.user.id, 1, 2029);
    const lateSent: MailMessage[] = [];
    await mailer(new Date('2029-03-02T08:23:00Z'), lateSent).run();
    const expired = lateSent.find((message) => message.to === late.user.email);
    expect(expired?.subject).toBe('Your kept card has expired – Debesis');
  });

  it('is a daily scheduled job', () => {
    expect(scheduledJob('payments.card-expiry')).toMatchObject({ cron: '23 8 * * *', payload: {} });
  });
});

describe('the worker runs payments.card-expiry', () => {
  let ctx: TestContext;
  let mailDir: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    mailDir = mkdtempSync(path.join(tmpdir(), 'debesis-card-expiry-'));
    await startWorker(testWorkerDeps(ctx.queue, ctx.database, mailDir));
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(mailDir, { recursive: true, force: true });
  });

  it('mails the owner of a card expiring this month into the mail folder, once', async () => {
    const owner = await signedInUser(ctx);
    const now = new Date();
    const kept = await createPaymentMethodsQueries(ctx.database.db).keep({
      accountId: owner.user.id,
      provider: 'sandbox',
      customerRef: 'cus_sb_worker',
      methodRef: 'pm_sb_ok_worker',
      brand: 'visa',
      last4: '4242',
      expMonth: now.getUTCMonth() + 1,
      expYear: now.getUTCFullYear(),
      createdAt: now,
    });
    if (kept.outcome !== 'kept') throw new Error('card not kept');
    const file = `${owner.user.email}--card-expiry-${kept.kept.id}.eml`;
    await ctx.queue.send('payments.card-expiry', {});
    const deadline = Date.now() + 15_000;
    while (!readdirSync(mailDir).includes(file)) {
      if (Date.now() > deadline) throw new Error(`no ${file} in ${readdirSync(mailDir).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(readFileSync(path.join(mailDir, file), 'utf8')).toContain(
      'Visa =E2=80=A2=E2=80=A2=E2=80=A2=E2=80=A2 4242',
    );
    const [row] = await ctx.database.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.id, kept.kept.id));
    expect(row?.expiryMailedAt).not.toBeNull();
    // Run again: the card was mailed about; no second message.
    await ctx.queue.send('payments.card-expiry', {});
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(readdirSync(mailDir).filter((name) => name.startsWith(owner.user.email))).toHaveLength(1);
  });
});
