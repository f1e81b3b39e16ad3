// Dunning's mail: the renewal's charge of the kept card failed (declined, or the bank wants the
// customer to authenticate), so its invoice is unpaid; the link pays it with any card, 3-D Secure
// when asked. One per failed attempt (its id names the renewal and the attempt, so a repeated run
// never sends it twice), in the owner's language.
import { cardBrandName, type Language } from '@debesis/contract';
import { escapeHtml } from '../../http/html.ts';
import type { MailMessage } from '../../mail/mailer.ts';

export function renewalFailedMail(mail: {
  renewalId: string;
  attempt: number;
  to: string;
  firstName: string;
  language: Language;
  serviceName: string;
  invoiceNumber: string;
  amountMinor: number;
  /** The service's end date: it runs until then. */
  validUntil: Date;
  card: { brand: string; last4: string } | null;
  /** Whether the bank asked for authentication (the card may be fine). */
  authentication: boolean;
  /** When the kept card is tried again; null after the last try. */
  nextAttemptAt: Date | null;
  /** The page that pays the invoice. */
  link: string;
}): MailMessage {
  const lt = mail.language === 'lt';
  const locale = lt ? 'lt-LT' : 'en-GB';
  const date = (at: Date) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(at);
  const amount = new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(
    mail.amountMinor / 100,
  );
  const card = mail.card ? `${cardBrandName(mail.card.brand)} •••• ${mail.card.last4}` : null;
  const subject = lt
    ? `Nepavyko pratęsti paslaugos „${mail.serviceName}“ – Debesis`
    : `We could not renew ${mail.serviceName} – Debesis`;
  const paragraphs = lt
    ? [
        `Sveiki, ${mail.firstName},`,
        mail.authentication
          ? `Jūsų bankas prašo patvirtinti paslaugos „${mail.serviceName}“ pratęsimo mokėjimą (${amount})${card ? ` kortele ${card}` : ''}, todėl sąskaita ${mail.invoiceNumber} dar neapmokėta.`
          : `Nepavyko apmokestinti ${card ? `išsaugotos kortelės ${card}` : 'išsaugotos kortelės'} už paslaugos „${mail.serviceName}“ pratęsimą (${amount}), todėl sąskaita ${mail.invoiceNumber} dar neapmokėta.`,
        `Paslauga veikia iki ${date(mail.validUntil)}. Apmokėkite sąskaitą bet kuria kortele šia nuoroda:`,
      ]
    : [
        `Hello ${mail.firstName},`,
        mail.authentication
          ? `Your bank asks you to confirm the renewal payment of ${mail.serviceName} (${amount})${card ? ` with ${card}` : ''}, so invoice ${mail.invoiceNumber} is not paid yet.`
          : `We could not charge ${card ? `your kept card ${card}` : 'your kept card'} for the renewal of ${mail.serviceName} (${amount}), so invoice ${mail.invoiceNumber} is not paid yet.`,
        `The service runs until ${date(mail.validUntil)}. Pay the invoice with any card here:`,
      ];
  const closing = mail.nextAttemptAt
    ? lt
      ? `Jei neapmokėsite, kortelę bandysime apmokestinti dar kartą ${date(mail.nextAttemptAt)}.`
      : `If it stays unpaid, we will try the card again on ${date(mail.nextAttemptAt)}.`
    : lt
      ? 'Daugiau kortelės neapmokestinsime; neapmokėjus paslauga baigsis nurodytą dieną.'
      : 'We will not try the card again; unless the invoice is paid, the service ends on that date.';
  const text = [...paragraphs, mail.link, closing].join('\n\n');
  const html = `<!doctype html><html lang="${mail.language}"><body style="font-family:sans-serif;line-height:1.5">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(mail.link)}">${escapeHtml(mail.link)}</a></p>
<p>${escapeHtml(closing)}</p>
</body></html>`;
  return {
    id: `renewal-failed-${mail.renewalId}-${mail.attempt}`,
    to: mail.to,
    subject,
    text,
    html,
  };
}
