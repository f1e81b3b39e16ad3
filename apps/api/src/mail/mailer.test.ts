import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer } from './mailer.ts';

describe('file mailer (embedded default)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('writes each message as a readable .eml file, once per message id', async () => {
    const mailDir = path.join(mkdtempSync(path.join(tmpdir(), 'debesis-mail-')), 'mail');
    dirs.push(path.dirname(mailDir));
    const mailer = createMailer({ mailDir, from: 'Debesis <no-reply@debesis.localhost>' });
    const message = {
      id: 'verify-42',
      to: 'ona@example.lt',
      subject: 'Patvirtinkite el. paštą',
      text: 'Open http://localhost:8080/auth/verify-email?token=abc',
      attachments: [
        { filename: 'a.txt', contentType: 'text/plain', contentBase64: Buffer.from('hi').toString('base64') },
      ],
    };
    await mailer.deliver(message);
    await mailer.deliver(message);

    const files = readdirSync(mailDir);
    expect(files).toEqual(['ona@example.lt--verify-42.eml']);
    const eml = readFileSync(path.join(mailDir, files[0] ?? ''), 'utf8');
    expect(eml).toContain('To: ona@example.lt');
    expect(eml).toContain('From: Debesis <no-reply@debesis.localhost>');
    expect(eml).toContain('Message-ID: <verify-42@debesis>');
    expect(eml).toContain('filename=a.txt');
    expect(mailer.directory).toBe(mailDir);
  });
});
