// The only SQL on users and user_settings.
import { asc, eq, ilike, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/transaction.ts';
import { userSettings, users } from './users.table.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type SettingsRow = typeof userSettings.$inferSelect;
export type UserWithSettings = UserRow & { settings: SettingsRow };

/** An account as the operator's search finds it. */
export interface AccountMatch {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  country: string | null;
  createdAt: Date;
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
const literal = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

export function createUsersQueries(db: Executor) {
  const withSettings = () =>
    db
      .select({ user: users, settings: userSettings })
      .from(users)
      .innerJoin(userSettings, eq(userSettings.userId, users.id));
  // The account behind most signed-in requests: its SQL is built once (see auth.queries.ts).
  let byId: ReturnType<typeof prepareById> | undefined;
  const prepareById = () =>
    withSettings()
      .where(eq(users.id, sql.placeholder('id')))
      .limit(1)
      .prepare('users_find_by_id');

  return {
    /** Accounts whose email or full name contains `text` (any case), oldest first (support's search). */
    async search(text: string, limit = 50): Promise<AccountMatch[]> {
      const pattern = `%${literal(text)}%`;
      return db
        .select({
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          country: users.country,
          createdAt: users.createdAt,
        })
        .from(users)
        .where(
          or(
            ilike(users.email, pattern),
            ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
          ),
        )
        .orderBy(asc(users.createdAt))
        .limit(limit);
    },
    async findById(id: string): Promise<UserWithSettings | undefined> {
      byId ??= prepareById();
      const [row] = await byId.execute({ id });
      return row ? { ...row.user, settings: row.settings } : undefined;
    },

    async findByEmail(email: string): Promise<UserWithSettings | undefined> {
      const [row] = await withSettings().where(eq(users.email, email.toLowerCase())).limit(1);
      return row ? { ...row.user, settings: row.settings } : undefined;
    },

    /** Creates the user and their settings together; the country given is kept as the registration country. */
    async create(values: NewUserRow, language: 'en' | 'lt'): Promise<UserWithSettings> {
      return db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({ ...values, registrationCountry: values.registrationCountry ?? values.country ?? null })
          .returning();
        if (!user) throw new Error('user insert returned no row');
        const [settings] = await tx.insert(userSettings).values({ userId: user.id, language }).returning();
        if (!settings) throw new Error('settings insert returned no row');
        return { ...user, settings };
      });
    },

    async update(id: string, values: Partial<NewUserRow>): Promise<void> {
      await db
        .update(users)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(users.id, id));
    },

    async updateSettings(userId: string, values: Partial<typeof userSettings.$inferInsert>): Promise<void> {
      if (Object.keys(values).length === 0) return;
      await db
        .update(userSettings)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(userSettings.userId, userId));
    },

    async recordLogin(id: string, at: Date): Promise<void> {
      await db
        .update(users)
        .set({ loginCount: sql`${users.loginCount} + 1`, lastLoginAt: at })
        .where(eq(users.id, id));
    },

    /** Sets the business details only if none are set yet; false when the account already had them. */
    async convertToBusiness(id: string, company: NonNullable<NewUserRow['company']>): Promise<boolean> {
      const changed = await db
        .update(users)
        .set({ accountType: 'business', company, updatedAt: new Date() })
        .where(sql`${users.id} = ${id} and ${users.accountType} = 'personal'`)
        .returning({ id: users.id });
      return changed.length === 1;
    },

    /**
     * Checked and written in one statement, so an invoice issued meanwhile cannot be left naming
     * details that changed after it (invoices copy the company when issued; billing.table.ts).
     */
    async correctCompany(id: string, company: NonNullable<NewUserRow['company']>): Promise<boolean> {
      const changed = await db
        .update(users)
        .set({ company, updatedAt: new Date() })
        .where(
          sql`${users.id} = ${id} and ${users.accountType} = 'business'
            and not exists (select 1 from invoices where invoices.account_id = ${users.id})`,
        )
        .returning({ id: users.id });
      return changed.length === 1;
    },
  };
}

export type UsersQueries = ReturnType<typeof createUsersQueries>;
