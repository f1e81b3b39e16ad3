import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContactMessageResponse, ErrorResponse } from '@debesis/contract';
import { createMailer } from '../../mail/mailer.ts';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { contactMail } from './contact.mail.ts';
import { createContactQueries } from './contact.queries.ts';

const SUPPORT = 'support@debesis.localhost';

const message = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ona Onaitė',
  email: 'ona@example.lt',
  subject: 'Moving 200 GB from our old NAS',
  message: 'Hello, can you help us move about 200 GB of files from our old NAS to a MINI plan?',
  ...overrides,
});

describe('contact', () => {
  const ctx = useTestContext({ clock: true });

  const send = (payload: object, remoteAddress: string, language = 'en') =>
    injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/contact',
      payload,
      remoteAddress,
      headers: { 'accept-language': language },
    });

  it('stores the message and mails it to support, answering 201 with the 24-hour promise', async () => {
    const response = await send(message({ email: 'Ona@Example.LT' }), '10.0.1.1', 'lt');
    expect(response.statusCode).toBe(201);
    const body = response.json<ContactMessageResponse>();
    expect(body).toMatchObject({ status: 'received', reply_within_hours: 24 });

    const row = await createContactQueries(ctx.database.db).findById(body.id);
    expect(row).toMatchObject({
      name: 'Ona Onaitė',
      email: 'ona@example.lt',
      subject: 'Moving 200 GB from our old NAS',
      language: 'lt',
    });
    expect(row?.message).toContain('200 GB of files');

    const mail = ctx.mailbox.last(SUPPORT);
    expect(mail.id).toBe(`contact-${body.id}`);
    expect(mail.subject).toBe('Contact form: Moving 200 GB from our old NAS');
    expect(mail.text).toContain('From: Ona Onaitė <ona@example.lt>');
    expect(mail.text).toContain('Language: Lithuanian');
    expect(mail.text).toContain('200 GB of files from our old NAS');
    expect(mail.html).not.toContain('<script>');
  });

  it('escapes what the visitor wrote in the HTML mail and keeps the subject on one line', async () => {
    const response = await send(
      message({
        email: 'html@example.lt',
        subject: 'Hi\r\nBcc: x@example.com',
        message: '<script>alert(1)</script> please',
      }),
      '10.0.1.2',
    );
    expect(response.statusCode).toBe(201);
    const mail = ctx.mailbox.last(SUPPORT);
    expect(mail.subject).toBe('Contact form: Hi Bcc: x@example.com');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
  });

  it('refuses missing and invalid fields with every field’s message, in English', async () => {
    const response = await send(
      { name: 'O', email: 'not-an-email', subject: ' ', message: 'short' },
      '10.0.2.1',
    );
    expect(response.statusCode).toBe(422);
    const body = response.json<ErrorResponse>();
    expect(body.detail).toBe('validation_error');
    const byField = Object.fromEntries((body.errors ?? []).map((error) => [error.field, error]));
    expect(byField.name).toMatchObject({ code: 'name_too_short', message: 'Must be at least 2 characters' });
    expect(byField.email).toMatchObject({
      code: 'invalid_email',
      message: 'Please enter a valid email address',
    });
    expect(byField.subject).toMatchObject({ code: 'required' });
    expect(byField.message).toMatchObject({ code: 'too_short', message: 'Must be at least 10 characters' });
  });

  it('answers the same refusal in Lithuanian', async () => {
    const response = await send({ email: 'ona@', message: 'x'.repeat(5001) }, '10.0.2.2', 'lt');
    expect(response.statusCode).toBe(422);
    const body = response.json<ErrorResponse>();
    const byField = Object.fromEntries((body.errors ?? []).map((error) => [error.field, error]));
    expect(byField.name?.code).toBe('required');
    expect(byField.email).toMatchObject({
      code: 'invalid_email',
      message: 'Įveskite teisingą el. pašto adresą',
    });
    expect(byField.subject?.code).toBe('required');
    expect(byField.message).toMatchObject({
      code: 'too_long',
      message: 'Turi būti ne daugiau kaip 5000 simbolių',
    });
    expect(body.message).not.toBe((await send({}, '10.0.2.2', 'en')).json<ErrorResponse>().message);
  });

  it('refuses fields it does not know', async () => {
    const response = await send(message({ email: 'extra@example.lt', phone: '+370' }), '10.0.2.3');
    expect(response.statusCode).toBe(422);
    expect(response.json<ErrorResponse>().errors?.[0]?.code).toBe('unknown_field');
  });

  it('limits messages per email address (3 an hour), then lets them through again', async () => {
    const email = 'limited@example.lt';
    for (let i = 0; i < 3; i += 1) {
      expect((await send(message({ email }), `10.0.3.${i + 1}`)).statusCode).toBe(201);
    }
    const refused = await send(message({ email: 'LIMITED@example.lt' }), '10.0.3.9');
    expect(refused.statusCode).toBe(429);
    expect(refused.json<ErrorResponse>().detail).toBe('too_many_attempts');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    ctx.advance(60 * 60_000 + 1000);
    expect((await send(message({ email }), '10.0.3.10')).statusCode).toBe(201);
  });

  it('limits messages per IP address (5 an hour), whatever the email', async () => {
    const mailsBefore = ctx.mailbox.to(SUPPORT).length;
    for (let i = 0; i < 5; i += 1) {
      expect((await send(message({ email: `ip-${i}@example.lt` }), '10.0.4.1')).statusCode).toBe(201);
    }
    const refused = await send(message({ email: 'ip-6@example.lt' }), '10.0.4.1');
    expect(refused.statusCode).toBe(429);
    // A refused message is neither stored nor mailed.
    expect(ctx.mailbox.to(SUPPORT).length).toBe(mailsBefore + 5);
    expect((await send(message({ email: 'ip-6@example.lt' }), '10.0.4.2')).statusCode).toBe(201);
  });
});

describe('contact with another support address', () => {
  const ctx = useTestContext({ env: { SUPPORT_EMAIL: 'help@example.com' } });

  it('names SUPPORT_EMAIL on the contact page', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/contact' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ support_email: 'help@example.com', reply_within_hours: 24 });
  });

  it('mails SUPPORT_EMAIL', async () => {
    const response = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/contact',
      payload: message(),
    });
    expect(response.statusCode).toBe(201);
    expect(ctx.mailbox.last('help@example.com').subject).toMatch(/^Contact form:/);
    expect(ctx.mailbox.to(SUPPORT)).toEqual([]);
  });
});

describe('contact mail in the embedded default', () => {
  it('is written as an .eml file that names the visitor, replies to them and carries the message', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'debesis-contact-mail-'));
    try {
      const mailer = createMailer({ mailDir: dir, from: 'Debesis <no-reply@debesis.localhost>' });
      const row = {
        id: '00000000-0000-4000-8000-000000000001',
        name: 'Jonas, "the admin"',
        email: 'jonas@example.lt',
        subject: 'NFS export',
        message: 'How do I mount the NFS export on Ubuntu?',
        language: 'en' as const,
        createdAt: new Date('2026-01-05T10:00:00Z'),
      };
      await mailer.deliver(contactMail(row, SUPPORT));
      const [file] = readdirSync(dir);
      expect(file).toBe(`${SUPPORT}--contact-${row.id}.eml`);
      const eml = readFileSync(path.join(dir, file ?? ''), 'utf8');
      expect(eml).toContain('Subject: Contact form: NFS export');
      expect(eml).toContain('Reply-To: "Jonas, \\"the admin\\"" <jonas@example.lt>');
      expect(eml).toContain('How do I mount the NFS export on Ubuntu?');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
