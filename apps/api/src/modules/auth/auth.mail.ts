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

/** The link of an email change, mailed to the new address: opening it proves the mailbox. */
export function emailChangeMail(mail: LinkMail): MailMessage {
  return mail.language === 'lt'
    ? compose(
        mail,
        'Patvirtinkite naują el. pašto adresą – Debesis',
        [
          `Sveiki, ${mail.firstName},`,
          'Paprašėte, kad jūsų Debesis paskyra naudotų šį el. pašto adresą. Patvirtinkite jį paspaudę nuorodą – tik tada adresas bus pakeistas:',
          'Nuoroda galioja 24 valandas ir gali būti panaudota vieną kartą. Jei to neprašėte, šį laišką ignoruokite – niekas nepasikeis.',
        ],
        'Patvirtinti naują adresą',
      )
    : compose(
        mail,
        'Confirm your new email address – Debesis',
        [
          `Hello ${mail.firstName},`,
          'You asked for your Debesis account to use this email address. Confirm it by opening this link; the address changes only then:',
          'The link is valid for 24 hours and can be used once. If you did not ask for this, ignore this message: nothing changes.',
        ],
        'Confirm new address',
      );
}

interface NoticeMail {
  id: string;
  to: string;
  firstName: string;
  language: Language;
  /** Where customers reach support (the contact page). */
  contactUrl: string;
}

/** A security notice: words only, no link that acts on the account. */
function notice(mail: NoticeMail, subject: string, paragraphs: string[]): MailMessage {
  return {
    id: mail.id,
    to: mail.to,
    subject,
    text: paragraphs.join('\n\n'),
    html: `<!doctype html><html lang="${mail.language}"><body style="font-family:sans-serif;line-height:1.5">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
</body></html>`,
  };
}

/** To the old address when a change is asked for: the owner can still stop it. */
export function emailChangeRequestedMail(mail: NoticeMail & { newEmail: string }): MailMessage {
  return mail.language === 'lt'
    ? notice(mail, 'Paprašyta pakeisti paskyros el. pašto adresą – Debesis', [
        `Sveiki, ${mail.firstName},`,
        `Paprašyta, kad jūsų Debesis paskyra vietoj šio adreso naudotų ${mail.newEmail}. Adresas pasikeis tik tada, kai bus atverta nuoroda, išsiųsta naujuoju adresu.`,
        'Jei tai buvote jūs, nieko daryti nereikia.',
        `Jei to neprašėte, kas nors žino jūsų slaptažodį: prisijunkite ir nedelsdami pakeiskite slaptažodį nustatymuose (tai atšaukia prašymą ir atjungia kitus seansus), tada parašykite mums: ${mail.contactUrl}`,
      ])
    : notice(mail, 'A change of your account’s email address was requested – Debesis', [
        `Hello ${mail.firstName},`,
        `Someone asked for your Debesis account to use ${mail.newEmail} instead of this address. The address changes only when the link we sent to the new address is opened.`,
        'If this was you, there is nothing to do.',
        `If it was not you, someone knows your password: sign in and change your password in Settings now (this cancels the request and signs out every other session), then write to us: ${mail.contactUrl}`,
      ]);
}

/** To the old address once the change is done. Nothing in it undoes the change: support does. */
export function emailChangedMail(mail: NoticeMail & { newEmail: string }): MailMessage {
  return mail.language === 'lt'
    ? notice(mail, 'Paskyros el. pašto adresas pakeistas – Debesis', [
        `Sveiki, ${mail.firstName},`,
        `Jūsų Debesis paskyra dabar naudoja adresą ${mail.newEmail}. Šiuo adresu nebegalite prisijungti ir nebegausite paskyros laiškų.`,
        'Jei tai buvote jūs, nieko daryti nereikia.',
        `Jei to nedarėte, nedelsdami parašykite mums (${mail.contactUrl}), nurodydami šį adresą ir naująjį – patikrinę, kad paskyra jūsų, grąžinsime ją jums.`,
      ])
    : notice(mail, 'Your account’s email address was changed – Debesis', [
        `Hello ${mail.firstName},`,
        `Your Debesis account now uses ${mail.newEmail}. You can no longer sign in with this address, and account mail no longer comes here.`,
        'If this was you, there is nothing to do.',
        `If it was not you, write to us now (${mail.contactUrl}), naming this address and the new one: once we have checked that the account is yours, we give it back to you.`,
      ]);
}

/** To the account's address after its password changed in Settings. */
export function passwordChangedMail(mail: NoticeMail): MailMessage {
  return mail.language === 'lt'
    ? notice(mail, 'Slaptažodis pakeistas – Debesis', [
        `Sveiki, ${mail.firstName},`,
        'Jūsų Debesis paskyros slaptažodis ką tik pakeistas nustatymuose, o visi kiti seansai atjungti.',
        'Jei tai buvote jūs, nieko daryti nereikia.',
        `Jei to nedarėte, prisijungimo puslapyje pasirinkite „Pamiršote slaptažodį?“, nustatykite naują slaptažodį ir parašykite mums: ${mail.contactUrl}`,
      ])
    : notice(mail, 'Your password was changed – Debesis', [
        `Hello ${mail.firstName},`,
        'The password of your Debesis account was just changed in Settings, and every other session was signed out.',
        'If this was you, there is nothing to do.',
        `If it was not you, choose “Forgot password?” on the sign-in page to set a new password, then write to us: ${mail.contactUrl}`,
      ]);
}
