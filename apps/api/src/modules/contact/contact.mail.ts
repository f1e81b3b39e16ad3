// The mail support receives for a contact message. Written for support, in English, whatever
// the visitor's language (which it names, so the reply can be in it).
import type { MailMessage } from '../../mail/mailer.ts';
import { escapeHtml } from '../../http/html.ts';
import type { ContactMessageRow } from './contact.queries.ts';

const LANGUAGE_NAMES = { en: 'English', lt: 'Lithuanian' } as const;

export function contactMail(row: ContactMessageRow, supportEmail: string): MailMessage {
  const facts: [string, string][] = [
    ['From', `${row.name} <${row.email}>`],
    ['Language', LANGUAGE_NAMES[row.language]],
    ['Received', row.createdAt.toISOString()],
    ['Message id', row.id],
  ];
  const text = [
    `A visitor wrote through the contact form. Reply to ${row.email} within 24 hours.`,
    facts.map(([label, value]) => `${label}: ${value}`).join('\n'),
    `Subject: ${row.subject}`,
    row.message,
  ].join('\n\n');
  const html = `<!doctype html><html lang="en"><body style="font-family:sans-serif;line-height:1.5">
<p>A visitor wrote through the contact form. Reply to <a href="mailto:${escapeHtml(row.email)}">${escapeHtml(row.email)}</a> within 24 hours.</p>
<table>${facts.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>
<h2 style="font-size:16px">${escapeHtml(row.subject)}</h2>
<p style="white-space:pre-wrap">${escapeHtml(row.message)}</p>
</body></html>`;
  return {
    // The row's id: delivering the job twice writes one message.
    id: `contact-${row.id}`,
    to: supportEmail,
    // Support answers with their mail client's Reply: it goes to the visitor, not to ourselves.
    // The name goes as a field of its own: the mailer quotes it, so commas or quotes in it
    // cannot turn into extra addresses.
    replyTo: { name: row.name, address: row.email },
    // Line breaks in a subject would be header injection; the schema trims, this flattens.
    subject: `Contact form: ${row.subject.replace(/\s+/g, ' ')}`,
    text,
    html,
  };
}
