// `ops customers …`: finding an account, and support's suspension of all its services (the
// services module's operator-suspension.ts does the transitions and records them).
import { isUuid } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { createActivityQueries } from '../../modules/activity/activity.queries.ts';
import { createActivityService } from '../../modules/activity/activity.service.ts';
import {
  suspendAccount,
  unsuspendAccount,
  type AccountSuspension,
  type OperatorSuspensionDeps,
} from '../../modules/services/operator-suspension.ts';
import { createServicesQueries } from '../../modules/services/services.queries.ts';
import { createUsersQueries, type AccountMatch } from '../../modules/users/users.queries.ts';

export interface CustomerSummary extends AccountMatch {
  services: Array<{ id: string; name: string; status: string }>;
}

/** The account an operator names by its id or its email; an Error saying so when none. */
export async function resolveAccount(db: Db, emailOrId: string): Promise<AccountMatch> {
  const users = createUsersQueries(db);
  const user = isUuid(emailOrId) ? await users.findById(emailOrId) : await users.findByEmail(emailOrId);
  if (!user) throw new Error(`no account ${isUuid(emailOrId) ? 'with id' : 'with email'} ${emailOrId}`);
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    country: user.country,
    createdAt: user.createdAt,
  };
}

/** An exact account id, or every account whose email or name contains the text; with their services. */
export async function findCustomers(db: Db, text: string): Promise<CustomerSummary[]> {
  const matches = isUuid(text)
    ? await resolveAccount(db, text).then(
        (account) => [account],
        () => [],
      )
    : await createUsersQueries(db).search(text);
  const services = createServicesQueries(db);
  const found: CustomerSummary[] = [];
  for (const account of matches) {
    const rows = await services.listForAccount(account.id);
    found.push({
      ...account,
      services: rows.map((row) => ({ id: row.id, name: row.name, status: row.status })),
    });
  }
  return found;
}

function suspensionDeps(db: Db, now: () => Date): OperatorSuspensionDeps {
  return { db, activity: createActivityService({ queries: createActivityQueries(db), now }), now };
}

export async function suspendCustomer(
  db: Db,
  emailOrId: string,
  reason: string | null,
  now: () => Date = () => new Date(),
): Promise<{ account: AccountMatch } & AccountSuspension> {
  const account = await resolveAccount(db, emailOrId);
  return { account, ...(await suspendAccount(suspensionDeps(db, now), account.id, reason)) };
}

export async function unsuspendCustomer(
  db: Db,
  emailOrId: string,
  now: () => Date = () => new Date(),
): Promise<{ account: AccountMatch } & AccountSuspension> {
  const account = await resolveAccount(db, emailOrId);
  return { account, ...(await unsuspendAccount(suspensionDeps(db, now), account.id)) };
}
