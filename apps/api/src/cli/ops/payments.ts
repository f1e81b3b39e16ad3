// `ops payments …`: an account's payments, and an operator's refund through the configured
// provider (the payments module's refund path, the same one a payment its order did not need
// takes).
import type { Db } from '../../db/database.ts';
import { createActivityQueries } from '../../modules/activity/activity.queries.ts';
import { createActivityService } from '../../modules/activity/activity.service.ts';
import { createPaymentsQueries, type PaymentSessionRow } from '../../modules/payments/payments.queries.ts';
import type { PaymentProvider } from '../../modules/payments/provider.ts';
import { refundPayment, type OperatorRefund } from '../../modules/payments/refund.ts';
import { resolveAccount } from './customers.ts';
import type { AccountMatch } from '../../modules/users/users.queries.ts';

export async function listPayments(
  db: Db,
  emailOrId: string,
): Promise<{ account: AccountMatch; payments: PaymentSessionRow[] }> {
  const account = await resolveAccount(db, emailOrId);
  return { account, payments: await createPaymentsQueries(db).listForAccount(account.id) };
}

export function refund(
  db: Db,
  provider: Pick<PaymentProvider, 'id' | 'refund'>,
  sessionId: string,
  reason: string | null,
  now: () => Date = () => new Date(),
): Promise<OperatorRefund> {
  return refundPayment(
    { db, provider, activity: createActivityService({ queries: createActivityQueries(db), now }), now },
    sessionId,
    reason,
  );
}
