// The payment confirmation, in the owner's language, with the invoice PDF attached. Its id names
// the invoice, so a retried delivery never sends a second one.
import type { Invoice, Language } from '@debesis/contract';
import { escapeHtml } from '../../http/html.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { INVOICE_TEXTS, invoiceMoney } from './invoice.texts.ts';

export function paymentConfirmationMail(mail: {
  to: string;
  firstName: string;
  language: Language;
  invoice: Invoice;
  pdf: Buffer;
  link: string;
}): MailMessage {
  const { invoice, language } = mail;
  const total = invoiceMoney(invoice.total, language);
  const type = INVOICE_TEXTS[language].typeLabels[invoice.type];
  const lt = language === 'lt';
  const subject = lt
    ? `Mokėjimas gautas – sąskaita ${invoice.number} – Debesis`
    : `Payment received – invoice ${invoice.number} – Debesis`;
  const paragraphs = lt
    ? [
        `Sveiki, ${mail.firstName},`,
        `Ačiū, gavome jūsų mokėjimą: ${total} (${type}, ${invoice.product_name}).`,
        `Sąskaita faktūra ${invoice.number} pridėta prie šio laiško. Visas sąskaitas rasite skiltyje „Atsiskaitymai“:`,
      ]
    : [
        `Hello ${mail.firstName},`,
        `Thank you, we have received your payment of ${total} (${type}, ${invoice.product_name}).`,
        `Invoice ${invoice.number} is attached to this message. All your invoices are on the billing page:`,
      ];
  const text = [...paragraphs, mail.link].join('\n\n');
  const html = `<!doctype html><html lang="${language}"><body style="font-family:sans-serif;line-height:1.5">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(mail.link)}">${escapeHtml(mail.link)}</a></p>
</body></html>`;
  return {
    id: `invoice-${invoice.number}`,
    to: mail.to,
    subject,
    text,
    html,
    attachments: [
      {
        filename: `${invoice.number}.pdf`,
        contentType: 'application/pdf',
        contentBase64: mail.pdf.toString('base64'),
      },
    ],
  };
}

/**
 * The credit note of a refund, in the owner's language, with its PDF. Its id names the credit
 * note, so a retried delivery never sends a second one.
 */
export function creditNoteMail(mail: {
  to: string;
  firstName: string;
  language: Language;
  creditNote: Invoice;
  pdf: Buffer;
  link: string;
}): MailMessage {
  const { creditNote, language } = mail;
  const amount = invoiceMoney(-creditNote.total, language);
  const invoice = creditNote.credited_invoice?.number ?? '';
  const lt = language === 'lt';
  const subject = lt
    ? `Pinigai grąžinti – kreditinė sąskaita ${creditNote.number} – Debesis`
    : `Refund issued – credit note ${creditNote.number} – Debesis`;
  const paragraphs = lt
    ? [
        `Sveiki, ${mail.firstName},`,
        `Grąžinome jums ${amount} pagal sąskaitą ${invoice} (${creditNote.product_name}). Pinigai grįš į kortelę, kuria mokėjote.`,
        `Kreditinė sąskaita faktūra ${creditNote.number} pridėta prie šio laiško. Visas sąskaitas rasite skiltyje „Atsiskaitymai“:`,
      ]
    : [
        `Hello ${mail.firstName},`,
        `We have refunded ${amount} of invoice ${invoice} (${creditNote.product_name}). The money goes back to the card you paid with.`,
        `Credit note ${creditNote.number} is attached to this message. All your invoices and credit notes are on the billing page:`,
      ];
  const text = [...paragraphs, mail.link].join('\n\n');
  const html = `<!doctype html><html lang="${language}"><body style="font-family:sans-serif;line-height:1.5">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(mail.link)}">${escapeHtml(mail.link)}</a></p>
</body></html>`;
  return {
    id: `credit-note-${creditNote.number}`,
    to: mail.to,
    subject,
    text,
    html,
    attachments: [
      {
        filename: `${creditNote.number}.pdf`,
        contentType: 'application/pdf',
        contentBase64: mail.pdf.toString('base64'),
      },
    ],
  };
}
