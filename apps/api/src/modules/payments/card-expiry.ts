// The daily job `payments.card-expiry`: the owner of a kept card is mailed in the card's expiry
// month (it works until that month ends, so renewals after it would fail), once per card: a new
// card (a new row) is mailed about in its own time. A card found only after its month is over
// (the job did not run that month) is mailed as expired. Both languages (the owner's).
import type { Db } from '../../db/database.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import type { UsersQueries } from '../users/users.queries.ts';
import { cardExpiryMail } from './payment-methods.mail.ts';
import { createPaymentMethodsQueries } from './payment-methods.queries.ts';
import { BILLING_PATH } from './payment-methods.service.ts';

/** Daily at 08:23 UTC (jobs/schedules.ts). */
export const CARD_EXPIRY_CRON = '23 8 * * *';
/** Cards mailed about per run at most (the next run takes the rest). */
const MAIL_BATCH = 200;

/** `year × 12 + month − 1`: a count of months, to compare an expiry with today. */
const monthIndex = (year: number, month: number) => year * 12 + month - 1;

export function createCardExpiryMailer(deps: {
  db: Db;
  users: Pick<UsersQueries, 'findById'>;
  sendMail: (message: MailMessage) => Promise<void>;
  publicUrl: string;
  now: () => Date;
}) {
  const queries = createPaymentMethodsQueries(deps.db);
  return {
    /** One run; how many owners it mailed. Running it again mails nobody twice. */
    async run(): Promise<{ mailed: number }> {
      const at = deps.now();
      const current = monthIndex(at.getUTCFullYear(), at.getUTCMonth() + 1);
      let mailed = 0;
      for (const card of await queries.expiringUnmailed(current, MAIL_BATCH)) {
        const owner = await deps.users.findById(card.accountId);
        if (owner) {
          // Sent before it is noted: the mail's id (the card's) makes a second send after a
          // crash a no-op in the mail queue.
          await deps.sendMail(
            cardExpiryMail({
              cardId: card.id,
              to: owner.email,
              firstName: owner.firstName,
              language: owner.settings.language,
              card,
              expired: monthIndex(card.expYear, card.expMonth) < current,
              link: `${deps.publicUrl}${BILLING_PATH}`,
            }),
          );
        }
        if ((await queries.markExpiryMailed(card.id, at)) && owner) mailed += 1;
      }
      return { mailed };
    },
  };
}
