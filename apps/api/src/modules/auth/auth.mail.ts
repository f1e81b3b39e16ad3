// The account mails, in the recipient's language. Plain text first (every client shows it),
// with a simple HTML twin.
import type { Language } from '@debesis/contract';
import type { MailMessage } from '../../mail/mailer.ts';
import { escapeHtml } from '../../http/html.ts';

interface LinkMail {
  id: string;
  to: string;
  firstName: string;
  link: string;
  language: Language;
}

function compose(mail: LinkMail, subject: string, paragraphs: string[], button: string): MailMessage {
  const text = [...paragraphs.slice(0, 2), mail.link, ...paragraphs.slice(2)].join('\n\n');
  const html = `<!doctype html><html lang="${mail.language}"><body style="font-family:sans-serif;line-height:1.5">
${paragraphs
  .slice(0, 2)
  .map((p) => `<p>${escapeHtml(p)}</p>`)
  .join('\n')}
<p><a href="${escapeHtml(mail.link)}" style="background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(button)}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(mail.link)}</p>
${paragraphs
  .slice(2)
  .map((p) => `<p style="font-size:13px;color:#555">${escapeHtml(p)}</p>`)
  .join('\n')}
</body></html>`;
  return { id: mail.id, to: mail.to, subject, text, html };
}

export function verificationMail(mail: LinkMail): MailMessage {
  return mail.language === 'lt'
    ? compose(
        mail,
        'Patvirtinkite savo el. pašto adresą – Debesis',
        [
          `Sveiki, ${mail.firstName},`,
          'Ačiū, kad užsiregistravote Debesis. Patvirtinkite savo el. pašto adresą paspaudę nuorodą:',
          'Nuoroda galioja 24 valandas ir gali būti panaudota vieną kartą. Jei nesiregistravote, šį laišką galite ignoruoti.',
        ],
        'Patvirtinti el. paštą',
      )
    : compose(
        mail,
        'Verify your email address – Debesis',
        [
          `Hello ${mail.firstName},`,
          'Thank you for registering with Debesis. Please confirm your email address by opening this link:',
          'The link is valid for 24 hours and can be used once. If you did not register, you can ignore this message.',
        ],
        'Verify email',
      );
}

export function passwordResetMail(mail: LinkMail): MailMessage {
  return mail.language === 'lt'
    ? compose(
        mail,
        'Slaptažodžio atkūrimas – Debesis',
        [
          `Sveiki, ${mail.firstName},`,
          'Gavome prašymą atkurti jūsų Debesis paskyros slaptažodį. Naują slaptažodį nustatykite paspaudę nuorodą:',
          'Nuoroda galioja 1 valandą ir gali būti panaudota vieną kartą. Jei to neprašėte, šį laišką galite ignoruoti – slaptažodis nepasikeis.',
        ],
        'Nustatyti naują slaptažodį',
      )
    : compose(
        mail,
        'Reset your password – Debesis',
        [
          `Hello ${mail.firstName},`,
          'We received a request to reset the password of your Debesis account. Choose a new password here:',
          'The link is valid for 1 hour and can be used once. If you did not ask for this, ignore this message: your password stays the same.',
        ],
        'Choose a new password',
      );
}
