// The kept card's one mail: it is about to expire (or has), so renewals would fail. In the
// owner's language; its id names the card, so a repeated job never sends a second one.
import { cardBrandName, type Language } from '@debesis/contract';
import { escapeHtml } from '../../http/html.ts';
import type { MailMessage } from '../../mail/mailer.ts';

export function cardExpiryMail(mail: {
  cardId: string;
  to: string;
  firstName: string;
  language: Language;
  card: { brand: string; last4: string; expMonth: number; expYear: number };
  /** True once the expiry month is over (a notice the job could not send in time). */
  expired: boolean;
  /** Billing, where the card is replaced. */
  link: string;
}): MailMessage {
  const { card } = mail;
  const name = `${cardBrandName(card.brand)} •••• ${card.last4}`;
  const expiry = `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`;
  const lt = mail.language === 'lt';
  const subject = lt
    ? mail.expired
      ? 'Jūsų išsaugota kortelė nebegalioja – Debesis'
      : 'Jūsų išsaugotos kortelės galiojimas baigiasi – Debesis'
    : mail.expired
      ? 'Your kept card has expired – Debesis'
      : 'Your kept card is about to expire – Debesis';
  const paragraphs = lt
    ? [
        `Sveiki, ${mail.firstName},`,
        mail.expired
          ? `Kortelė ${name}, kurią išsaugojote paslaugoms pratęsti, nebegalioja (galiojo iki ${expiry}).`
          : `Kortelė ${name}, kurią išsaugojote paslaugoms pratęsti, galioja tik iki šio mėnesio pabaigos (${expiry}).`,
        'Kad pratęsimai nenutrūktų, skiltyje „Atsiskaitymai“ pakeiskite ją nauja kortele:',
      ]
    : [
        `Hello ${mail.firstName},`,
        mail.expired
          ? `The card ${name} you kept for renewals has expired (it was valid until ${expiry}).`
          : `The card ${name} you kept for renewals is valid only until the end of this month (${expiry}).`,
        'So that renewals keep going through, replace it with a new card on the billing page:',
      ];
  const text = [...paragraphs, mail.link].join('\n\n');
  const html = `<!doctype html><html lang="${mail.language}"><body style="font-family:sans-serif;line-height:1.5">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(mail.link)}">${escapeHtml(mail.link)}</a></p>
</body></html>`;
  return { id: `card-expiry-${mail.cardId}`, to: mail.to, subject, text, html };
}
