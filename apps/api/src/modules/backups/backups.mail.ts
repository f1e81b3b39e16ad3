// The one backup mail: a run failed (the first failure since the schedule last succeeded; the
// ones after it are in the history, not in the owner's inbox). In the owner's language.
import type { BackupFailureCode } from '@debesis/contract';
import type { MailMessage } from '../../mail/mailer.ts';
import {
  composeServiceMail,
  formatDate,
  greeting,
  noteFor,
  type ServiceMailBase,
} from '../services/services.mail.ts';

const REASONS: Record<BackupFailureCode, { en: string; lt: string }> = {
  repository_missing: {
    en: 'the backup store of this service was missing on its storage node, so earlier backups are lost. The next run starts a new one.',
    lt: 'saugojimo mazge nebuvo šios paslaugos atsarginių kopijų saugyklos, todėl ankstesnės kopijos prarastos. Kitas paleidimas sukurs naują.',
  },
  path_missing: {
    en: 'a folder it backs up no longer exists. Edit the schedule to choose the folders again.',
    lt: 'aplanko, kurį ji kopijuoja, nebėra. Pakeiskite planą ir iš naujo pasirinkite aplankus.',
  },
  no_space: {
    en: 'there was no free space left for it.',
    lt: 'jai neliko laisvos vietos.',
  },
  interrupted: {
    en: 'the storage node restarted while it ran.',
    lt: 'jai vykstant saugojimo mazgas buvo paleistas iš naujo.',
  },
  target_exists: {
    en: 'the folder to restore into exists already.',
    lt: 'aplankas, į kurį atkuriama, jau yra.',
  },
  failed: {
    en: 'the backup program reported an error (its words are in the backup history).',
    lt: 'atsarginių kopijų programa pranešė apie klaidą (jos žodžiai – kopijų istorijoje).',
  },
};

export function backupFailedMail(
  mail: ServiceMailBase & { scheduleName: string; failedAt: Date; code: BackupFailureCode },
): MailMessage {
  const reason = REASONS[mail.code];
  return mail.language === 'lt'
    ? composeServiceMail(
        mail,
        `Nepavyko atsarginė kopija „${mail.scheduleName}“ – Debesis`,
        [
          greeting(mail),
          `Paslaugos „${mail.serviceName}“ atsarginė kopija „${mail.scheduleName}“ nepavyko ${formatDate(mail.failedAt, 'lt')}: ${reason.lt}`,
          'Ji bus bandoma vėl kitu suplanuotu laiku. Išsamią informaciją matysite ir kopiją paleisti galėsite paslaugos skiltyje „Atsarginės kopijos“. Kol kopijos vėl pavyks, šio laiško nebekartosime.',
        ],
        'Peržiūrėti atsargines kopijas',
        noteFor('lt'),
      )
    : composeServiceMail(
        mail,
        `Backup “${mail.scheduleName}” failed – Debesis`,
        [
          greeting(mail),
          `The backup “${mail.scheduleName}” of your service “${mail.serviceName}” failed on ${formatDate(mail.failedAt, 'en')}: ${reason.en}`,
          'It runs again at its next scheduled time. The Backups tab of the service shows the details and can run it now. We will not write again about this schedule until it succeeds.',
        ],
        'View backups',
        noteFor('en'),
      );
}
