import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, serverSecretOf } from './config.ts';

/** A real seller, as production must configure it. */
const SELLER = {
  SELLER_NAME: 'UAB Pavyzdys',
  SELLER_COMPANY_CODE: '305555555',
  SELLER_VAT_NUMBER: 'LT100015555555',
  SELLER_STREET: 'Konstitucijos pr. 7',
  SELLER_CITY: 'Vilnius',
  SELLER_POSTAL_CODE: 'LT-09308',
  SELLER_EMAIL: 'billing@pavyzdys.lt',
};

describe('loadConfig', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'debesis-config-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('runs the embedded default with no variables, inventing and keeping secrets in DATA_DIR', () => {
    const cwd = tempDir();
    const config = loadConfig({}, cwd);
    expect(config).toMatchObject({
      embedded: true,
      PORT: 8080,
      HOST: '127.0.0.1',
      ROLES: ['api', 'worker', 'agent'],
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.mailDir).toBe(path.join(cwd, 'data', 'mail'));
    const secretsFile = path.join(cwd, 'data', 'secrets.json');
    expect(existsSync(secretsFile)).toBe(true);
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(loadConfig({}, cwd).jwtSecret).toBe(config.jwtSecret);
    expect(JSON.parse(readFileSync(secretsFile, 'utf8'))).toMatchObject({ jwtSecret: config.jwtSecret });
  });

  it('reads JWT_SECRET_PREVIOUS as a list of older secrets, each as long as JWT_SECRET must be', () => {
    const current = 'the-current-secret-0123456789abcdefgh';
    const older = ['an-older-secret-0123456789abcdefghijk', 'the-oldest-secret-0123456789abcdefghi'];
    expect(loadConfig({ JWT_SECRET: current }, tempDir()).jwtSecretPrevious).toEqual([]);
    const config = loadConfig(
      { JWT_SECRET: current, JWT_SECRET_PREVIOUS: ` ${older.join(' , ')} ` },
      tempDir(),
    );
    expect(config.jwtSecretPrevious).toEqual(older);
    expect(serverSecretOf(config)).toEqual({ current, previous: older });
    expect(() =>
      loadConfig({ JWT_SECRET: current, JWT_SECRET_PREVIOUS: `${older[0]},short` }, tempDir()),
    ).toThrow(/JWT_SECRET_PREVIOUS/);
  });

  it('refuses production without its secrets and servers, naming each variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' }, tempDir())).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production' }, tempDir());
    } catch (error) {
      const message = (error as Error).message;
      for (const name of ['JWT_SECRET', 'DATABASE_URL', 'SMTP_URL', 'PUBLIC_URL']) {
        expect(message).toContain(name);
      }
      // Optional: nodes enroll with one-time tokens (`npm run nodes -- enroll <name>`).
      expect(message).not.toContain('NODE_REGISTRATION_TOKEN');
    }
  });

  it('fails fast on malformed values', () => {
    expect(() => loadConfig({ PORT: 'eighty' }, tempDir())).toThrow(/PORT/);
    expect(() => loadConfig({ ROLES: 'api,cook' }, tempDir())).toThrow(/ROLES/);
    expect(() => loadConfig({ JWT_SECRET: 'short' }, tempDir())).toThrow(/JWT_SECRET/);
  });

  it('refuses production without the seller of its invoices (the defaults are a sample company)', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: 'p'.repeat(40),
      NODE_REGISTRATION_TOKEN: 'r'.repeat(30),
      PAYMENTS_SANDBOX_SECRET: 's'.repeat(30),
      ALLOW_SANDBOX_PAYMENTS: 'true',
      DATABASE_URL: 'postgres://db/app',
      SMTP_URL: 'smtp://mail:587',
      PUBLIC_URL: 'https://debesis.example',
    };
    expect(() => loadConfig(production, tempDir())).toThrow(/SELLER_NAME: required in production/);
    const { SELLER_VAT_NUMBER: _left, ...withoutVat } = SELLER;
    expect(() => loadConfig({ ...production, ...withoutVat }, tempDir())).toThrow(
      /^Invalid configuration:\n {2}SELLER_VAT_NUMBER: required in production$/,
    );
  });

  it('accepts a complete production configuration without touching the disk', () => {
    const cwd = tempDir();
    const config = loadConfig(
      {
        NODE_ENV: 'production',
        JWT_SECRET: 'p'.repeat(40),
        NODE_REGISTRATION_TOKEN: 'r'.repeat(30),
        PAYMENTS_SANDBOX_SECRET: 's'.repeat(30),
        ALLOW_SANDBOX_PAYMENTS: 'true',
        DATABASE_URL: 'postgres://db/app',
        SMTP_URL: 'smtp://mail:587',
        PUBLIC_URL: 'https://debesis.example',
        ROLES: 'api',
        ...SELLER,
      },
      cwd,
    );
    expect(config).toMatchObject({ embedded: false, ROLES: ['api'], publicUrl: 'https://debesis.example' });
    expect(existsSync(path.join(cwd, 'data', 'secrets.json'))).toBe(false);
  });
});
