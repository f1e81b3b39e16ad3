// One mailer for the whole product. In production it speaks SMTP; in the embedded default every
// message becomes an .eml file in MAIL_DIR, which a person (or a test) can open like real mail.
// Modules never send directly: they enqueue `mail.send`, so a message survives a crash and a
// flaky SMTP server is retried by the queue.
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../private-dir.ts';

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** base64, so that the message can travel as JSON through the job queue. */
  contentBase64: string;
}

export interface MailMessage {
  /** Stable id chosen by the sender; repeated delivery of the same id is skipped. */
  id: string;
  to: string;
  /** Where a reply goes when it is not the sender (a contact message: the visitor). */
  replyTo?: { name: string; address: string };
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

export interface Mailer {
  deliver(message: MailMessage): Promise<void>;
  /** Where messages are written in the embedded default, else null. */
  readonly directory: string | null;
}

export function createMailer(options: { smtpUrl?: string; mailDir: string; from: string }): Mailer {
  const toNodemailer = (message: MailMessage) => ({
    from: options.from,
    to: message.to,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    messageId: `<${message.id}@debesis>`,
    attachments: (message.attachments ?? []).map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      content: Buffer.from(attachment.contentBase64, 'base64'),
    })),
  });

  if (options.smtpUrl) {
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      directory: null,
      async deliver(message) {
        await transport.sendMail(toNodemailer(message));
      },
    };
  }

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    directory: options.mailDir,
    async deliver(message) {
      const info = (await transport.sendMail(toNodemailer(message))) as { message: Buffer };
      // Reset and verification links are live credentials: the operator's alone.
      await ensurePrivateDir(options.mailDir);
      // The id makes the file name stable: delivering the same message twice rewrites one file.
      const safeRecipient = message.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const safeId = message.id.replace(/[^a-zA-Z0-9._-]/g, '_');
      const file = path.join(options.mailDir, `${safeRecipient}--${safeId}.eml`);
      // Written aside and renamed, as a maildir is: a reader never sees half a message (a test's
      // mailbox poll once read an empty subject from a file still being written).
      const partial = path.join(options.mailDir, `.${safeRecipient}--${safeId}.${process.pid}.partial`);
      await writeFile(partial, info.message, { mode: PRIVATE_FILE_MODE });
      await rename(partial, file);
    },
  };
}
