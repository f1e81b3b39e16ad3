// Reads the mail the product wrote to DATA_DIR/mail (the embedded mail transport), the way a
// mail client would: MIME-decoded, so links survive quoted-printable line wrapping.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface ReceivedMail {
  file: string;
  subject: string;
  text: string;
  html: string;
  attachments: ParsedMail['attachments'];
}

/** Every mail delivered to `to`, oldest first. */
export async function readAll(dataDir: string, to: string): Promise<ReceivedMail[]> {
  const dir = path.join(dataDir, 'mail');
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((file) => file.toLowerCase().startsWith(`${to.toLowerCase()}--`))
    .map((file) => path.join(dir, file))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
  const mails: ReceivedMail[] = [];
  for (const file of files) {
    const parsed = await simpleParser(readFileSync(file));
    mails.push({
      file,
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : '',
      attachments: parsed.attachments,
    });
  }
  return mails;
}

/** Waits until a mail to `to` matching `match` has been delivered; returns the newest such mail. */
export async function waitForMail(
  dataDir: string,
  to: string,
  match: (mail: ReceivedMail) => boolean = () => true,
  timeoutMs = 20_000,
): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readAll(dataDir, to)).filter(match).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The first link in a mail that points at `pathPrefix` (e.g. /auth/verify-email). */
export function linkIn(mail: ReceivedMail, pathPrefix: string): string {
  const match = new RegExp(`https?://[^\\s"'<>]+${pathPrefix.replace(/[/?]/g, '\\$&')}[^\\s"'<>]*`).exec(
    mail.text,
  );
  if (!match) throw new Error(`no ${pathPrefix} link in "${mail.subject}"`);
  return match[0];
}
