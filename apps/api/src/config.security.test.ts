// Attack 12.7: production started with the sandbox payment provider when PAYMENT_PROVIDER was
// unset, so test card 4242 paid for real services.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

/** Everything production needs, but the payment provider. */
const PRODUCTION = {
  NODE_ENV: 'production',
  JWT_SECRET: 'p'.repeat(40),
  NODE_REGISTRATION_TOKEN: 'r'.repeat(30),
  DATABASE_URL: 'postgres://db/app',
  SMTP_URL: 'smtp://mail:587',
  PUBLIC_URL: 'https://debesis.example',
  SELLER_NAME: 'UAB Pavyzdys',
  SELLER_COMPANY_CODE: '305555555',
  SELLER_VAT_NUMBER: 'LT100015555555',
  SELLER_STREET: 'Konstitucijos pr. 7',
  SELLER_CITY: 'Vilnius',
  SELLER_POSTAL_CODE: 'LT-09308',
  SELLER_EMAIL: 'billing@pavyzdys.lt',
};
const STRIPE = {
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_live_0123456789',
  STRIPE_WEBHOOK_SECRET: 'whsec_0123456789',
};
const SANDBOX_SECRET = { PAYMENTS_SANDBOX_SECRET: 's'.repeat(30) };

describe('the payment provider in production', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'debesis-config-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('attack 12.7: refuses the sandbox in production, unset or named, unless explicitly allowed', () => {
    for (const env of [
      { ...PRODUCTION, ...SANDBOX_SECRET },
      { ...PRODUCTION, ...SANDBOX_SECRET, PAYMENT_PROVIDER: 'sandbox' },
      { ...PRODUCTION, ...SANDBOX_SECRET, ALLOW_SANDBOX_PAYMENTS: 'false' },
    ]) {
      expect(() => loadConfig(env, tempDir())).toThrow(ConfigError);
      expect(() => loadConfig(env, tempDir())).toThrow(/PAYMENT_PROVIDER/);
    }
    const allowed = loadConfig(
      { ...PRODUCTION, ...SANDBOX_SECRET, ALLOW_SANDBOX_PAYMENTS: 'true' },
      tempDir(),
    );
    expect(allowed).toMatchObject({ PAYMENT_PROVIDER: 'sandbox', ALLOW_SANDBOX_PAYMENTS: true });
    // Development and tests keep the sandbox as their default.
    expect(loadConfig({}, tempDir()).PAYMENT_PROVIDER).toBe('sandbox');
  });

  it('attack 12.7: asks for the sandbox secret only with the sandbox', () => {
    const withStripe = loadConfig({ ...PRODUCTION, ...STRIPE }, tempDir());
    expect(withStripe).toMatchObject({ PAYMENT_PROVIDER: 'stripe', embedded: false });
    expect(() => loadConfig({ ...PRODUCTION, ALLOW_SANDBOX_PAYMENTS: 'true' }, tempDir())).toThrow(
      /PAYMENTS_SANDBOX_SECRET: required in production/,
    );
  });
});

describe('mail addresses in production', () => {
  const dir = () => mkdtempSync(path.join(tmpdir(), 'debesis-config-'));
  const production = { ...PRODUCTION, ...STRIPE };

  it('attack: refuses a placeholder SUPPORT_EMAIL or MAIL_FROM (the contact form mailed nowhere)', () => {
    for (const [name, value] of [
      ['SUPPORT_EMAIL', 'support@debesis.localhost'],
      ['SUPPORT_EMAIL', 'support@example.com'],
      ['MAIL_FROM', 'Debesis <no-reply@debesis.localhost>'],
      ['MAIL_FROM', 'no-reply@mail.example.org'],
      ['MAIL_FROM', 'Shop <shop@pavyzdys.example>'],
    ] as const) {
      expect(() => loadConfig({ ...production, [name]: value }, dir()), value).toThrow(
        new RegExp(`${name}: .* is a placeholder that receives no mail`),
      );
    }
    // The seller's address is the fallback, so a placeholder there is refused for both.
    expect(() => loadConfig({ ...production, SELLER_EMAIL: 'billing@debesis.localhost' }, dir())).toThrow(
      /SUPPORT_EMAIL: billing@debesis.localhost is a placeholder[\s\S]*MAIL_FROM: billing@debesis.localhost/,
    );
  });

  it('falls back to the seller in production, takes real addresses, and keeps the defaults in development', () => {
    expect(loadConfig(production, dir())).toMatchObject({
      SUPPORT_EMAIL: 'billing@pavyzdys.lt',
      MAIL_FROM: 'UAB Pavyzdys <billing@pavyzdys.lt>',
    });
    expect(
      loadConfig(
        { ...production, SUPPORT_EMAIL: 'pagalba@pavyzdys.lt', MAIL_FROM: 'Pavyzdys <ne@pavyzdys.lt>' },
        dir(),
      ),
    ).toMatchObject({ SUPPORT_EMAIL: 'pagalba@pavyzdys.lt', MAIL_FROM: 'Pavyzdys <ne@pavyzdys.lt>' });
    expect(loadConfig({}, dir())).toMatchObject({
      SUPPORT_EMAIL: 'support@debesis.localhost',
      MAIL_FROM: 'Debesis <no-reply@debesis.localhost>',
    });
  });
});
