// The sandbox provider's charge ledger (sandbox-ledger.table.ts): what makes its idempotency keys
// behave like Stripe's across processes and restarts. The first request of a key decides the
// charge and is kept; a repeat gets that same answer and is counted; a repeat with other
// parameters is refused, as Stripe refuses an idempotency key reused for another request.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import type { SavedCardCharge } from './provider.ts';
import { sandboxCharges } from './sandbox-ledger.table.ts';

export interface SandboxChargeRequest {
  customerRef: string;
  methodRef: string;
  amountMinor: number;
  currency: string;
  idempotencyKey: string;
  description: string;
}

export interface SandboxLedger {
  /** The answer kept for the request's key, or `decide()`'s, kept now for the next repeat. */
  charge(request: SandboxChargeRequest, decide: () => SavedCardCharge): Promise<SavedCardCharge>;
  /** The answer kept for a charge's reference; undefined for one the ledger never made. */
  byReference(reference: string): Promise<SavedCardCharge | undefined>;
  /** A pending charge settled: its answer from now on. */
  settle(reference: string, answer: SavedCardCharge): Promise<void>;
}

export class IdempotencyKeyReused extends Error {
  constructor(key: string) {
    super(`idempotency key ${key} was first used for another charge (method, amount or currency)`);
  }
}

export function createSandboxLedger(db: Db): SandboxLedger {
  return {
    async charge(request, decide) {
      const answer = decide();
      // One statement: of two processes asking at once, one inserts and the other counts a repeat.
      const [row] = await db
        .insert(sandboxCharges)
        .values({ ...request, status: answer.status, answer })
        .onConflictDoUpdate({
          target: sandboxCharges.idempotencyKey,
          set: { requests: sql`${sandboxCharges.requests} + 1`, lastRequestedAt: sql`now()` },
        })
        .returning();
      if (!row) throw new Error(`sandbox ledger kept nothing for ${request.idempotencyKey}`);
      if (
        row.methodRef !== request.methodRef ||
        row.amountMinor !== request.amountMinor ||
        row.currency !== request.currency
      ) {
        throw new IdempotencyKeyReused(request.idempotencyKey);
      }
      return row.answer;
    },
    async byReference(reference) {
      const [row] = await db
        .select({ answer: sandboxCharges.answer })
        .from(sandboxCharges)
        .where(sql`${sandboxCharges.answer} ->> 'reference' = ${reference}`)
        .limit(1);
      return row?.answer;
    },
    async settle(reference, answer) {
      await db
        .update(sandboxCharges)
        .set({ status: answer.status, answer })
        .where(sql`${sandboxCharges.answer} ->> 'reference' = ${reference}`);
    },
  };
}
