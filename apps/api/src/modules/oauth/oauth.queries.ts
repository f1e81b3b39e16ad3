// The only SQL on OAuth states, linked identities and one-time login codes.
import { and, eq, gt, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { OAuthProvider } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { oauthIdentities, oauthLoginCodes, oauthStates } from './oauth.table.ts';

export type OAuthStateRow = typeof oauthStates.$inferSelect;
export type OAuthIdentityRow = typeof oauthIdentities.$inferSelect;

export function createOAuthQueries(db: Db) {
  return {
    async insertState(values: {
      stateHash: string;
      provider: OAuthProvider;
      codeVerifier: string;
      nonce: string | null;
      redirectPath: string;
      bindingHash: string;
      expiresAt: Date;
      createdAt: Date;
    }): Promise<void> {
      await db.insert(oauthStates).values(values);
    },

    /**
     * Reads and deletes a state in one statement, so of two callbacks carrying the same state
     * only one gets the row.
     */
    async takeState(stateHash: string): Promise<OAuthStateRow | undefined> {
      const [row] = await db.delete(oauthStates).where(eq(oauthStates.stateHash, stateHash)).returning();
      return row;
    },

    /** States of sign-ins that were abandoned; they can never be used. */
    async deleteExpiredStates(at: Date): Promise<void> {
      await db.delete(oauthStates).where(lte(oauthStates.expiresAt, at));
    },

    async findIdentity(provider: OAuthProvider, subject: string): Promise<OAuthIdentityRow | undefined> {
      const [row] = await db
        .select()
        .from(oauthIdentities)
        .where(and(eq(oauthIdentities.provider, provider), eq(oauthIdentities.subject, subject)))
        .limit(1);
      return row;
    },

    async insertIdentity(values: {
      provider: OAuthProvider;
      subject: string;
      userId: string;
      email: string;
      createdAt: Date;
    }): Promise<void> {
      await db.insert(oauthIdentities).values(values);
    },

    async insertLoginCode(values: {
      codeHash: string;
      userId: string;
      provider: OAuthProvider;
      bindingHash: string;
      expiresAt: Date;
      createdAt: Date;
    }): Promise<void> {
      await db.insert(oauthLoginCodes).values(values);
    },

    /**
     * Marks a live, unused code used, atomically, when it was issued to this browser: the one
     * caller that wins gets its user and provider; everyone else gets nothing.
     */
    async useLoginCode(
      codeHash: string,
      bindingHash: string,
      at: Date,
    ): Promise<{ userId: string; provider: OAuthProvider } | undefined> {
      const [row] = await db
        .update(oauthLoginCodes)
        .set({ usedAt: at })
        .where(
          and(
            eq(oauthLoginCodes.codeHash, codeHash),
            eq(oauthLoginCodes.bindingHash, bindingHash),
            gt(oauthLoginCodes.expiresAt, at),
            isNull(oauthLoginCodes.usedAt),
          ),
        )
        .returning({ userId: oauthLoginCodes.userId, provider: oauthLoginCodes.provider });
      return row;
    },

    /** Codes that were used or ran out; kept no longer than needed. */
    async deleteSpentLoginCodes(at: Date): Promise<void> {
      await db
        .delete(oauthLoginCodes)
        .where(or(lte(oauthLoginCodes.expiresAt, at), isNotNull(oauthLoginCodes.usedAt)));
    },
  };
}

export type OAuthQueries = ReturnType<typeof createOAuthQueries>;
