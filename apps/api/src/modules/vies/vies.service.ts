// Whether VIES says a VAT number is registered, with a cache in PostgreSQL (vies_checks) shared by
// every API process, and the rule for when VIES cannot answer. It owns only that question; what
// the answer does to VAT is decided in orders/quotes.service.ts.
//
// Freshness of a cached answer:
//   - "valid" is reused for 24 hours: registrations rarely end, and asking once a day per number
//     keeps us far from VIES's concurrency limits;
//   - "invalid" is reused for 1 hour only, so a business that has just registered, or fixed a typo
//     with its tax office, is not held back for a day.
// When VIES is down (timeout, network error, HTTP 5xx, MS_UNAVAILABLE, SERVICE_UNAVAILABLE,
// TIMEOUT, MS/GLOBAL_MAX_CONCURRENT_REQ, …):
//   - the last answer for the number is used if it is at most 30 days old;
//   - with none, the verdict is "unavailable". The caller then treats the number as unverified:
//     no reverse charge, the VAT of the customer's country is charged. That is the conservative
//     side for the seller (a reverse charge on an unregistered number would leave us owing the
//     VAT), and the answer says so (`vat_number_check: "vies_unavailable"`).
// After a failure, VIES is not asked about that member state for `retryAfterMs`, so that while it
// is down callers do not each wait for the timeout. Concurrent questions about one number share
// one request.
import type { ViesClient } from './vies.client.ts';
import type { ViesCheckRow, ViesQueries } from './vies.queries.ts';

const HOUR_MS = 60 * 60 * 1000;
export const VIES_VALID_FOR_MS = 24 * HOUR_MS;
export const VIES_INVALID_FOR_MS = HOUR_MS;
export const VIES_FALLBACK_FOR_MS = 30 * 24 * HOUR_MS;

export interface ViesVerdict {
  verdict: 'valid' | 'invalid' | 'unavailable';
  /** When VIES gave the answer used (null when there was none). */
  checkedAt: Date | null;
  /** The answer came from the cache, not from VIES just now. */
  cached: boolean;
  /** Why VIES could not answer now, when it could not (even if a cached answer stood in). */
  unavailableReason: string | null;
  /** VIES's consultation number for the answer used, when it gave one. */
  consultationNumber: string | null;
}

export function createViesService(deps: {
  client: ViesClient;
  queries: Pick<ViesQueries, 'find' | 'save' | 'pruneBefore'>;
  now?: () => Date;
  /** How long to leave a member state alone after VIES failed for it, in milliseconds. */
  retryAfterMs: number;
  /** Where a failure of VIES is reported, so that operators see that numbers go unverified. */
  log?: { warn(details: object, message: string): void };
}) {
  const now = deps.now ?? (() => new Date());
  const pausedUntil = new Map<string, number>();
  const inFlight = new Map<string, Promise<ViesVerdict>>();
  let lastPrunedAt = 0;

  const fromRow = (row: ViesCheckRow, unavailableReason: string | null): ViesVerdict => ({
    verdict: row.valid ? 'valid' : 'invalid',
    checkedAt: row.checkedAt,
    cached: true,
    unavailableReason,
    consultationNumber: row.requestIdentifier,
  });

  async function ask(prefix: string, number: string, vatNumber: string): Promise<ViesVerdict> {
    const cached = await deps.queries.find(vatNumber);
    const at = now().getTime();
    if (cached) {
      const age = at - cached.checkedAt.getTime();
      if (age < (cached.valid ? VIES_VALID_FOR_MS : VIES_INVALID_FOR_MS)) return fromRow(cached, null);
    }

    const paused = (pausedUntil.get(prefix) ?? 0) > at;
    const lookup = paused
      ? ({ outcome: 'unavailable', reason: 'PAUSED' } as const)
      : await deps.client.check(prefix, number);

    if (lookup.outcome === 'unavailable') {
      if (!paused) {
        deps.log?.warn({ vies: { country: prefix, reason: lookup.reason } }, 'VIES could not answer');
        if (deps.retryAfterMs > 0) pausedUntil.set(prefix, at + deps.retryAfterMs);
      }
      if (cached && at - cached.checkedAt.getTime() <= VIES_FALLBACK_FOR_MS) {
        return fromRow(cached, lookup.reason);
      }
      return {
        verdict: 'unavailable',
        checkedAt: null,
        cached: false,
        unavailableReason: lookup.reason,
        consultationNumber: null,
      };
    }

    pausedUntil.delete(prefix);
    const checkedAt = now();
    await deps.queries.save({
      vatNumber,
      valid: lookup.valid,
      name: lookup.name,
      address: lookup.address,
      requestDate: lookup.requestDate,
      requestIdentifier: lookup.requestIdentifier,
      checkedAt,
    });
    // Old answers can stand in for nothing; dropping them now and then keeps the table small.
    if (checkedAt.getTime() - lastPrunedAt > HOUR_MS) {
      lastPrunedAt = checkedAt.getTime();
      await deps.queries.pruneBefore(new Date(checkedAt.getTime() - VIES_FALLBACK_FOR_MS));
    }
    return {
      verdict: lookup.valid ? 'valid' : 'invalid',
      checkedAt,
      cached: false,
      unavailableReason: null,
      consultationNumber: lookup.requestIdentifier,
    };
  }

  return {
    /**
     * What VIES says of a number that has already passed the format and checksum check.
     * `prefix` is its VAT prefix (EL for Greece), `number` the rest.
     */
    verify(prefix: string, number: string): Promise<ViesVerdict> {
      const vatNumber = `${prefix}${number}`;
      const running = inFlight.get(vatNumber);
      if (running) return running;
      const promise = ask(prefix, number, vatNumber).finally(() => inFlight.delete(vatNumber));
      inFlight.set(vatNumber, promise);
      return promise;
    },
  };
}

export type ViesService = ReturnType<typeof createViesService>;
