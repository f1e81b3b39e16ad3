// What the API logs while people sign up, follow mailed links and come back from a provider:
// the request lines keep the path, not the tokens in the query string; e-mail addresses and
// passwords never appear in full.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createTestContext, type TestContext } from '../test/test-app.ts';
import { register } from '../test/factories.ts';
import { loggerOptions, maskEmails, redactUrl } from './logging.ts';

describe('logs hold no personal data in full', () => {
  let ctx: TestContext;
  const lines: string[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    ctx = await createTestContext({ logger: pino(loggerOptions('info'), stream) });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('attack 12.11: request lines, mailed-link tokens and e-mail addresses are redacted', async () => {
    const { body } = await register(ctx, { email: 'ona.onaite.logs@example.lt' });
    const resetToken = 'reset-token-SECRET-0123456789';
    await ctx.app.inject({ method: 'GET', url: `/auth/reset-password?token=${resetToken}&lang=lt` });
    await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/auth/oauth/github/callback?code=oauth-code-SECRET&state=state-SECRET',
    });
    await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/activity/filtered?action=${encodeURIComponent(body.email)}&page=2`,
    });
    ctx.app.log.info({ mailId: 'm1', to: body.email }, 'mail delivered');

    const logged = lines.join('');
    expect(logged).toContain('/auth/reset-password?token=…&lang=lt');
    expect(logged).toContain('o…@example.lt');
    expect(logged).toContain('/api/v1/activity/filtered?action=…&page=2');
    expect(logged).not.toContain(resetToken);
    expect(logged).not.toContain('SECRET');
    expect(logged).not.toContain('ona.onaite.logs');
    expect(logged).not.toContain(body.password);
  });

  it('keeps what an operator needs: paths, harmless query values, e-mail domains', () => {
    expect(redactUrl('/api/v1/billing/invoices?page=2&per_page=20&q=ona')).toBe(
      '/api/v1/billing/invoices?page=2&per_page=20&q=…',
    );
    expect(redactUrl('/api/v1/health')).toBe('/api/v1/health');
    expect(maskEmails('to Jonas.Jonaitis+x@mail.example.com and ą@b.lt')).toBe(
      'to J…@mail.example.com and ą…@b.lt',
    );
  });
});
