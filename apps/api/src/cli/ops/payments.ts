// `ops payments …`: an account's payments, and an operator's refund through the configured
// provider (the payments module's refund path, the same one a payment its order did not need
// takes).
import type { Db } from '../../db/database.ts';
import { createActivityQueries } from '../../modules/activity/activity.queries.ts';
import { createActivityService } from '../../modules/activity/activity.service.ts';
import { createPaymentsQueries, type PaymentSessionRow } from '../../modules/payments/payments.queries.ts';
import type { PaymentProvider } from '../../modules/payments/provider.ts';
import {
  refundPayment,
  type OperatorRefund,
  type OperatorRefundDeps,
  type OperatorRefundRequest,
} from '../../modules/payments/refund.ts';
import { resolveAccount } from './customers.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { creditNoteMessage } from '../../modules/billing/credit-note.ts';
import { createUsersQueries } from '../../modules/users/users.queries.ts';
import type { AccountMatch } from '../../modules/users/users.queries.ts';

export async function listPayments(
  db: Db,
  emailOrId: string,
): Promise<{ account: AccountMatch; payments: PaymentSessionRow[] }> {
  const account = await resolveAccount(db, emailOrId);
  return { account, payments: await createPaymentsQueries(db).listForAccount(account.id) };
}

/**
 * `--amount` as the operator writes it: euros, with at most two decimals after a point or a
 * comma ("12.50", "12,5", "30"), as minor units (cents).
 */
export function parseAmount(text: string): number {
  const match = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!match) throw new Error(`--amount takes euros with at most two decimals, e.g. 12.50; not "${text}"`);
  const minor = Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
  if (minor <= 0) throw new Error('--amount must be more than 0.00');
  return minor;
}

/**
 * The operator's refund, with its credit note (prefix: CREDIT_NOTE_NUMBER_PREFIX); `notify`
 * queues the credit note's mail to the owner.
 */
export function refund(
  db: Db,
  provider: Pick<PaymentProvider, 'id' | 'refund'>,
  request: OperatorRefundRequest,
  options: {
    creditNotePrefix?: string;
    now?: () => Date;
    notify?: OperatorRefundDeps['notify'];
  } = {},
): Promise<OperatorRefund> {
  const now = options.now ?? (() => new Date());
  return refundPayment(
    {
      db,
      provider,
      activity: createActivityService({ queries: createActivityQueries(db), now }),
      creditNotePrefix: options.creditNotePrefix ?? 'CN',
      ...(options.notify ? { notify: options.notify } : {}),
      now,
    },
    request,
  );
}

/** Queues the mail of a credit note just issued (a `mail.send` job: a worker delivers it). */
export function creditNoteNotifier(
  db: Db,
  queue: Pick<JobQueue, 'send'>,
  publicUrl: string,
): NonNullable<OperatorRefundDeps['notify']> {
  return async ({ accountId, id }) => {
    const message = await creditNoteMessage(
      db,
      { owner: (account) => createUsersQueries(db).findById(account), publicUrl },
      accountId,
      id,
    );
    if (!message) throw new Error(`credit note ${id} or its owner is gone`);
    await queue.send('mail.send', message, { idempotencyKey: message.id });
  };
}
