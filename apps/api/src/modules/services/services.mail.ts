// The lifecycle mails of a service, in the owner's language: waiting for room, ready, expiring
// soon (and critical), expired, quarantined, terminated. Plain text first (every client shows
// it), with a simple HTML twin, as the account mails. Dates are UTC, written the way the web app
// writes them (en-US, lt-LT).
import type { ExpiryWarning, Language } from '@debesis/contract';
import { escapeHtml } from '../../http/html.ts';
import type { MailMessage } from '../../mail/mailer.ts';

export interface ServiceMailBase {
  id: string;
  to: string;
  firstName: string;
  language: Language;
  serviceName: string;
  /** The service's page in the dashboard. */
  link: string;
}

export function formatDate(date: Date, language: Language): string {
  const text = new Intl.DateTimeFormat(language === 'lt' ? 'lt-LT' : 'en-US', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(date);
  return `${text} UTC`;
}

/** A service mail: paragraphs, one button to `mail.link`, and the note on why it came. */
export function composeServiceMail(
  mail: ServiceMailBase,
  subject: string,
  paragraphs: string[],
  button: string,
  note: string,
): MailMessage {
  const text = [...paragraphs, mail.link, note].join('\n\n');
  const html = `<!doctype html><html lang="${mail.language}"><body style="font-family:sans-serif;line-height:1.5">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(mail.link)}" style="background:#1d4ed8;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(button)}</a></p>
<p style="font-size:13px;color:#555">${escapeHtml(mail.link)}</p>
<p style="font-size:13px;color:#555">${escapeHtml(note)}</p>
</body></html>`;
  return { id: mail.id, to: mail.to, subject, text, html };
}

export const greeting = (mail: ServiceMailBase) =>
  mail.language === 'lt' ? `Sveiki, ${mail.firstName},` : `Hello ${mail.firstName},`;

export const noteFor = (language: Language) =>
  language === 'lt'
    ? 'Šį laišką gavote, nes esate šios Debesis paslaugos savininkas.'
    : 'You receive this message because you own this Debesis service.';

/** Paid, but no node has room yet: retried automatically, nothing to do. */
export function resourcePendingMail(mail: ServiceMailBase & { retryMinutes: number }): MailMessage {
  return mail.language === 'lt'
    ? composeServiceMail(
        mail,
        `Paslauga „${mail.serviceName}“ laukia išteklių – Debesis`,
        [
          greeting(mail),
          `Jūsų mokėjimas gautas, tačiau šiuo metu neturime laisvų išteklių paslaugai „${mail.serviceName}“ paruošti.`,
          `Bandome iš naujo automatiškai kas ${mail.retryMinutes} min. Kai paslauga bus paruošta, parašysime dar kartą – nieko daryti nereikia.`,
        ],
        'Peržiūrėti paslaugą',
        noteFor(mail.language),
      )
    : composeServiceMail(
        mail,
        `Your service “${mail.serviceName}” is waiting for resources – Debesis`,
        [
          greeting(mail),
          `We have received your payment, but there are no free resources to set up “${mail.serviceName}” right now.`,
          `We retry automatically every ${mail.retryMinutes} minutes and will write again when it is ready. You do not need to do anything.`,
        ],
        'View the service',
        noteFor(mail.language),
      );
}

/** Placed and applied by its node: ready to use, with its address. */
export function serviceReadyMail(mail: ServiceMailBase & { address: string; validUntil: Date }): MailMessage {
  return mail.language === 'lt'
    ? composeServiceMail(
        mail,
        `Jūsų paslauga „${mail.serviceName}“ paruošta – Debesis`,
        [
          greeting(mail),
          `Jūsų paslauga „${mail.serviceName}“ paruošta ir veikia.`,
          `IP adresas: ${mail.address}. Galioja iki ${formatDate(mail.validUntil, mail.language)}.`,
          'Naudotojus, grupes ir bendrinamus aplankus sukurkite paslaugos puslapyje.',
        ],
        'Atidaryti paslaugą',
        noteFor(mail.language),
      )
    : composeServiceMail(
        mail,
        `Your workspace “${mail.serviceName}” is ready – Debesis`,
        [
          greeting(mail),
          `Your workspace “${mail.serviceName}” is ready and running.`,
          `IP address: ${mail.address}. Valid until ${formatDate(mail.validUntil, mail.language)}.`,
          'Create its users, groups and shares on the service page.',
        ],
        'Open the service',
        noteFor(mail.language),
      );
}

/** valid_until is near: extend to keep access (sent once per level and period). */
export function expiryWarningMail(
  mail: ServiceMailBase & { warning: ExpiryWarning; daysLeft: number; validUntil: Date },
): MailMessage {
  const critical = mail.warning === 'critical';
  return mail.language === 'lt'
    ? composeServiceMail(
        mail,
        critical
          ? `Skubu: paslaugos „${mail.serviceName}“ galiojimas baigiasi po ${mail.daysLeft} d. – Debesis`
          : `Paslaugos „${mail.serviceName}“ galiojimas netrukus baigsis – Debesis`,
        [
          greeting(mail),
          `Paslaugos „${mail.serviceName}“ galiojimas baigiasi ${formatDate(mail.validUntil, mail.language)} (liko dienų: ${mail.daysLeft}).`,
          'Pasibaigus galiojimui prieiga išjungiama; duomenys kurį laiką saugomi, o vėliau ištrinami. Pratęskite paslaugą, kad prieiga nenutrūktų.',
        ],
        'Pratęsti paslaugą',
        noteFor(mail.language),
      )
    : composeServiceMail(
        mail,
        critical
          ? `Urgent: “${mail.serviceName}” expires in ${mail.daysLeft} ${mail.daysLeft === 1 ? 'day' : 'days'} – Debesis`
          : `Your service “${mail.serviceName}” expires soon – Debesis`,
        [
          greeting(mail),
          `Your service “${mail.serviceName}” expires on ${formatDate(mail.validUntil, mail.language)} (${mail.daysLeft} ${mail.daysLeft === 1 ? 'day' : 'days'} left).`,
          'When it expires, access is turned off; the data is kept for a while and then deleted. Extend the service to keep access without interruption.',
        ],
        'Extend the service',
        noteFor(mail.language),
      );
}

/** Expired: access off, data kept until quarantine and then termination. */
export function serviceExpiredMail(
  mail: ServiceMailBase & { quarantineAt: Date; terminatesAt: Date },
): MailMessage {
  return mail.language === 'lt'
    ? composeServiceMail(
        mail,
        `Paslaugos „${mail.serviceName}“ galiojimas baigėsi – Debesis`,
        [
          greeting(mail),
          `Paslaugos „${mail.serviceName}“ galiojimas baigėsi, todėl prieiga prie jos išjungta. Duomenys išsaugoti.`,
          `${formatDate(mail.quarantineAt, mail.language)} paslauga bus perkelta į karantiną, o ${formatDate(mail.terminatesAt, mail.language)} jos duomenys bus ištrinti. Pratęskite paslaugą, kad vėl galėtumėte ja naudotis.`,
        ],
        'Pratęsti paslaugą',
        noteFor(mail.language),
      )
    : composeServiceMail(
        mail,
        `Your service “${mail.serviceName}” has expired – Debesis`,
        [
          greeting(mail),
          `Your service “${mail.serviceName}” has expired, so access to it is turned off. Its data is kept.`,
          `On ${formatDate(mail.quarantineAt, mail.language)} it goes into quarantine, and on ${formatDate(mail.terminatesAt, mail.language)} its data is deleted. Extend your service to regain access.`,
        ],
        'Extend the service',
        noteFor(mail.language),
      );
}

/** Quarantined: the last chance before the data is deleted. */
export function serviceQuarantinedMail(mail: ServiceMailBase & { terminatesAt: Date }): MailMessage {
  return mail.language === 'lt'
    ? composeServiceMail(
        mail,
        `Paslauga „${mail.serviceName}“ karantine: duomenys bus ištrinti – Debesis`,
        [
          greeting(mail),
          `Paslauga „${mail.serviceName}“ perkelta į karantiną, nes jos galiojimas baigėsi ir ji nebuvo pratęsta.`,
          `${formatDate(mail.terminatesAt, mail.language)} paslauga bus nutraukta, o visi jos duomenys – negrįžtamai ištrinti. Pratęskite paslaugą iki tol, kad duomenų neprarastumėte.`,
        ],
        'Pratęsti paslaugą',
        noteFor(mail.language),
      )
    : composeServiceMail(
        mail,
        `Your service “${mail.serviceName}” is quarantined: its data will be deleted – Debesis`,
        [
          greeting(mail),
          `Your service “${mail.serviceName}” has been quarantined because it expired and was not extended.`,
          `On ${formatDate(mail.terminatesAt, mail.language)} it will be terminated and all its data deleted for good. Extend the service before then to avoid data loss.`,
        ],
        'Extend the service',
        noteFor(mail.language),
      );
}

/** Terminated: the data is being deleted; nothing can bring it back. */
export function serviceTerminatedMail(mail: ServiceMailBase): MailMessage {
  return mail.language === 'lt'
    ? composeServiceMail(
        mail,
        `Paslauga „${mail.serviceName}“ nutraukta – Debesis`,
        [
          greeting(mail),
          `Paslauga „${mail.serviceName}“ nutraukta, o jos duomenys ištrinami iš mūsų serverių. Atkurti jų nebebus galima.`,
          'Jei paslaugos vėl prireiks, užsisakykite naują planą.',
        ],
        'Peržiūrėti planus',
        noteFor(mail.language),
      )
    : composeServiceMail(
        mail,
        `Your service “${mail.serviceName}” has been terminated – Debesis`,
        [
          greeting(mail),
          `Your service “${mail.serviceName}” has been terminated and its data is being deleted from our servers. It cannot be restored.`,
          'If you need storage again, you can order a new plan at any time.',
        ],
        'See the plans',
        noteFor(mail.language),
      );
}
