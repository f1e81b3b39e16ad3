// The API's files on disk are the operator's alone: the data folder 0700, the database's folder
// 0700, mail (live reset links) and secrets.json 0600, also where an older version left them wider.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { openPglite } from './db/database.ts';
import { createMailer } from './mail/mailer.ts';

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('the API’s files on disk', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'debesis-modes-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('mail: the folder 0700 and each message 0600, a folder made wider before tightened', async () => {
    const mailDir = path.join(tempDir(), 'mail');
    mkdirSync(mailDir, { mode: 0o755 });
    chmodSync(mailDir, 0o755);
    const mailer = createMailer({ mailDir, from: 'Debesis <no-reply@debesis.localhost>' });
    await mailer.deliver({
      id: 'reset-1',
      to: 'ona@example.lt',
      subject: 'Reset',
      text: 'http://x/reset?token=abc',
    });
    expect(modeOf(mailDir)).toBe(0o700);
    expect(modeOf(path.join(mailDir, 'ona@example.lt--reset-1.eml'))).toBe(0o600);
  });

  it('the embedded database: its folder and the data folder 0700', { timeout: 90_000 }, async () => {
    const dataDir = path.join(tempDir(), 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const database = await openPglite(path.join(dataDir, 'db'));
    try {
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(path.join(dataDir, 'db'))).toBe(0o700);
    } finally {
      await database.close();
    }
  });

  it('secrets.json 0600 in a 0700 data folder, an older 0644 one tightened', () => {
    const cwd = tempDir();
    mkdirSync(path.join(cwd, 'data'), { mode: 0o755 });
    writeFileSync(path.join(cwd, 'data', 'secrets.json'), '{}', { mode: 0o644 });
    chmodSync(path.join(cwd, 'data', 'secrets.json'), 0o644);
    loadConfig({}, cwd);
    expect(modeOf(path.join(cwd, 'data'))).toBe(0o700);
    expect(modeOf(path.join(cwd, 'data', 'secrets.json'))).toBe(0o600);
  });
});
