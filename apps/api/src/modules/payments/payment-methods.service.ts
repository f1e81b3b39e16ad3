// Kept cards (issue 38): the card an account keeps at the provider for renewals, what Billing
// shows of it, its card form, its removal, the charge of it without the customer, and the mail
// before it expires.
//
// A card is kept when the provider says it attached one to the account's customer (a signed
// `method.attached` event, after a paid session whose customer ticked "Keep this card", or after
// Billing's card form), exactly once per event like every provider event. One card per account:
// a newer one replaces the kept one, which is detached at the provider; an older event arriving
// late replaces nothing. The number never reaches us: the provider's reference, the brand, the
// last four digits and the expiry do.
//
// For renewals (renewals.ts): `chargeKeptCard({ accountId, amountMinor, currency,
// idempotencyKey, description })` charges the account's kept card off-session. The idempotency
// key is the caller's promise of "once": the same key never charges twice at the provider, so a
// crash between the charge and its record is repaired by calling again with the same key.
// The mail about a card about to expire is the daily job of card-expiry.ts.
import { randomBytes } from 'node:crypto';
import type { PaymentMethodsResponse, SavedPaymentMethod } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction, type Tx } from '../../db/transaction.ts';
import { notFound } from '../../http/app-error.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { UsersQueries } from '../users/users.queries.ts';
import { createPaymentMethodsQueries, type PaymentMethodRow } from './payment-methods.queries.ts';
import { createPaymentsQueries } from './payments.queries.ts';
import type {
  PaymentProvider,
  ProviderCardDetachedEvent,
  ProviderCardEvent,
  SavedCardCharge,
} from './provider.ts';

/** Where the card form leads back to, and where the expiry mail sends the owner. */
export const BILLING_PATH = '/dashboard/billing';

export function presentPaymentMethod(row: PaymentMethodRow): SavedPaymentMethod {
  return {
    id: row.id,
    provider: row.provider,
    brand: row.brand,
    last4: row.last4,
    exp_month: row.expMonth,
    exp_year: row.expYear,
    created_at: row.createdAt.toISOString(),
  };
}

/** A kept card's charge: the provider's answer, with the card it charged. */
/** A kept card's charge, with the card it was made on (null: the card was removed since). */
export type KeptCardCharge =
  { status: 'no_card' } | (SavedCardCharge & { card: { id: string; brand: string; last4: string } | null });

export function createPaymentMethodsService(deps: {
  db: Db;
  provider: PaymentProvider;
  users: Pick<UsersQueries, 'findById'>;
  activity: Pick<ActivityService, 'record'>;
  publicUrl: string;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const queries = createPaymentMethodsQueries(deps.db);
  const providerId = deps.provider.id;

  /** Forgets a card at the provider after it stopped being kept; a failure leaves it there, harmless. */
  async function detachQuietly(card: PaymentMethodRow): Promise<void> {
    if (card.provider !== providerId) return;
    try {
      await deps.provider.detachMethod(card.methodRef);
    } catch {
      // Nothing charges a card that is not kept; the provider's copy is only untidy.
    }
  }

  async function customerFor(accountId: string): Promise<string> {
    const known = await queries.findCustomer(accountId, providerId);
    if (known) return known;
    const owner = await deps.users.findById(accountId);
    if (!owner) throw notFound();
    const { customerRef } = await deps.provider.createCustomer({
      accountId,
      email: owner.email,
      name: `${owner.firstName} ${owner.lastName}`.trim(),
    });
    return queries.insertCustomer(accountId, providerId, customerRef, now());
  }

  /** A card event recorded like every provider event: false when it was recorded before (a replay). */
  async function recordedOnce(
    tx: Tx,
    event: { id: string; type: string; payload: Record<string, unknown> },
  ): Promise<boolean> {
    return createPaymentsQueries(tx).recordEvent({
      provider: providerId,
      eventId: event.id,
      type: event.type,
      sessionId: null,
      payload: event.payload,
      receivedAt: now(),
    });
  }
  return {
    /** The account's customer at the configured provider, made at the first kept card. */
    customerFor,

    async get(accountId: string): Promise<PaymentMethodsResponse> {
      const row = await queries.findForAccount(accountId);
      return { payment_method: row ? presentPaymentMethod(row) : null };
    },

    /** Opens the provider's card form that keeps a card without charging; where it is. */
    async startSetup(accountId: string): Promise<{ url: string }> {
      const customerRef = await customerFor(accountId);
      const setupId = `pms_${randomBytes(18).toString('base64url')}`;
      const returnUrl = `${deps.publicUrl}${BILLING_PATH}?payment_method=saved`;
      const created = await deps.provider.createSetup({ setupId, customerRef, returnUrl });
      await queries.insertSetup({
        id: setupId,
        accountId,
        provider: providerId,
        providerSetupId: created.providerSetupId,
        status: 'open',
        returnUrl,
        createdAt: now(),
        updatedAt: now(),
      });
      return { url: created.url };
    },

    /** A sandbox card form, for its page (another provider's answers 404). */
    async setupForPage(setupId: string) {
      const setup = await queries.findSetup(setupId);
      if (!setup || setup.provider !== 'sandbox') throw notFound();
      return setup;
    },

    /** The sandbox form was filled: open → completed (false when it was not open any more). */
    completeSetup: (setupId: string, outcome: 'completed' | 'failed') =>
      queries.closeSetup(setupId, outcome, now()),

    /** Removes the kept card: detached at the provider first, so a failure there keeps it listed. */
    async remove(accountId: string, meta: { ip?: string } = {}): Promise<PaymentMethodsResponse> {
      const card = await queries.findForAccount(accountId);
      if (!card) return { payment_method: null };
      if (card.provider === providerId) await deps.provider.detachMethod(card.methodRef);
      const removed = await queries.remove(accountId);
      if (removed) {
        await deps.activity.record({
          accountId,
          action: 'payment method removed',
          tone: 'warning',
          ...(meta.ip ? { ip: meta.ip } : {}),
          details: { brand: removed.brand, last4: removed.last4 },
        });
      }
      return { payment_method: null };
    },

    /**
     * The provider detached a card: an account keeping it keeps it no longer (Billing offers to
     * add one; a renewal meanwhile is dunned as without a card). Recorded like every provider
     * event, so a replay is a duplicate; a card nobody keeps (replaced, removed here) is ignored.
     */
    async applyDetachedEvent(event: ProviderCardDetachedEvent): Promise<'applied' | 'duplicate' | 'ignored'> {
      return inTransaction(deps.db, async (tx) => {
        if (!(await recordedOnce(tx, event))) return 'duplicate' as const;
        const removed = await createPaymentMethodsQueries(tx).removeByReference(providerId, event.methodRef);
        if (!removed) return 'ignored' as const;
        await deps.activity.record(
          {
            accountId: removed.accountId,
            action: 'payment method removed',
            tone: 'warning',
            details: { brand: removed.brand, last4: removed.last4, by_provider: true },
          },
          tx,
        );
        return 'applied' as const;
      });
    },

    /**
     * The provider attached a card to one of our customers: the account keeps it. Recorded like
     * every provider event, so a replay is a duplicate; an unknown customer is refused.
     */
    async applyCardEvent(event: ProviderCardEvent): Promise<'applied' | 'duplicate' | 'refused'> {
      const outcome = await inTransaction(deps.db, async (tx) => {
        const payments = createPaymentsQueries(tx);
        if (!(await recordedOnce(tx, event))) return { result: 'duplicate' as const };
        const methods = createPaymentMethodsQueries(tx);
        const accountId = await methods.accountOfCustomer(providerId, event.card.customerRef);
        if (!accountId) {
          await payments.refuseEvent(providerId, event.id, 'customer_unknown');
          return { result: 'refused' as const };
        }
        const { card } = event;
        const kept = await methods.keep({
          accountId,
          provider: providerId,
          customerRef: card.customerRef,
          methodRef: card.methodRef,
          brand: card.brand.toLowerCase(),
          last4: card.last4,
          expMonth: card.expMonth,
          expYear: card.expYear,
          createdAt: event.attachedAt,
        });
        if (kept.outcome === 'kept') {
          await deps.activity.record(
            {
              accountId,
              action: 'payment method saved',
              tone: 'info',
              details: { brand: kept.kept.brand, last4: kept.kept.last4, replaced: kept.replaced !== null },
            },
            tx,
          );
        }
        return {
          result: 'applied' as const,
          replaced: kept.outcome === 'kept' ? kept.replaced : null,
          stale: kept.outcome === 'stale',
        };
      });
      if (outcome.result !== 'applied') return outcome.result;
      if (outcome.replaced) await detachQuietly(outcome.replaced);
      if (outcome.stale) {
        // A newer card is kept already: this older one is not kept, nor left attached.
        try {
          await deps.provider.detachMethod(event.card.methodRef);
        } catch {
          // Untidy at the provider only.
        }
      }
      return 'applied';
    },

    /**
     * Charges the account's kept card without the customer (renewals). `no_card` when it keeps
     * none. Throws when the provider cannot be reached: call again with the same key.
     */
    async chargeKeptCard(input: {
      accountId: string;
      amountMinor: number;
      currency: 'EUR';
      idempotencyKey: string;
      description: string;
    }): Promise<KeptCardCharge> {
      const card = await queries.findForAccount(input.accountId);
      if (!card || card.provider !== providerId) return { status: 'no_card' };
      const charge = await deps.provider.chargeSaved({
        customerRef: card.customerRef,
        methodRef: card.methodRef,
        amountMinor: input.amountMinor,
        currency: input.currency,
        idempotencyKey: input.idempotencyKey,
        description: input.description,
      });
      return { ...charge, card: { id: card.id, brand: card.brand, last4: card.last4 } };
    },

    /** Where a charge of the account's kept card stands now (one answered `pending` before). */
    async keptCardChargeOutcome(accountId: string, reference: string): Promise<KeptCardCharge> {
      const card = await queries.findForAccount(accountId);
      const charge = await deps.provider.savedCharge(reference);
      return { ...charge, card: card ? { id: card.id, brand: card.brand, last4: card.last4 } : null };
    },
  };
}

export type PaymentMethodsService = ReturnType<typeof createPaymentMethodsService>;
