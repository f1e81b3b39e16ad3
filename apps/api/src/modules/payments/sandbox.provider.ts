// The built-in sandbox provider: a hosted card page served by this app (its own routes under
// /payments-sandbox), test card numbers with fixed outcomes, and signed events delivered to the
// webhook like a real provider's, through the job queue (so they are retried). Its events state
// the amount and currency the card page showed, matched like Stripe's; a refund is simulated.
//
// Kept cards mirror Stripe's test cards: the card page (or the card form of Billing) attaches the
// card with a `method.attached` event, and the card's reference names how it behaves later, the
// way Stripe's `pm_card_…` test methods do: 4242 4242 4242 4242 charges fine, 4000 0000 0000 0341
// declines every off-session charge, 4000 0027 6000 3184 needs authentication, 4000 0000 0000 9995
// lacks funds. Given a ledger (sandbox-ledger.ts: a table, as the app runs it), each charge is
// recorded under its idempotency key and a repeated key gets the first answer, across processes;
// without one (unit tests) the same key still gives the same reference.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { SANDBOX_CARDS } from '@debesis/contract';
import { AppError } from '../../http/app-error.ts';
import type { PaymentProvider, ProviderCardEvent, ProviderEvent, SavedCardCharge } from './provider.ts';
import type { SandboxLedger } from './sandbox-ledger.ts';
import { SANDBOX_SIGNATURE_HEADER, verifySandboxSignature } from './sandbox-signature.ts';

export type CardOutcome =
  | { kind: 'succeeded' }
  | { kind: 'failed'; code: 'card_declined' | 'insufficient_funds'; message: string }
  | { kind: 'pending' };

/** What each test card does; any other number is refused on the card page. */
export function outcomeForCard(cardNumber: string): CardOutcome | null {
  switch (cardNumber.replace(/\D/g, '')) {
    case SANDBOX_CARDS.success:
      return { kind: 'succeeded' };
    case SANDBOX_CARDS.declined:
      return { kind: 'failed', code: 'card_declined', message: 'Your card was declined.' };
    case SANDBOX_CARDS.insufficientFunds:
      return { kind: 'failed', code: 'insufficient_funds', message: 'Your card has insufficient funds.' };
    case SANDBOX_CARDS.pending:
      return { kind: 'pending' };
    // On the page the customer is there: 3184's authentication is passed, 0341 pays (only its
    // later off-session charges decline).
    case SANDBOX_CARDS.declinesOffSession:
    case SANDBOX_CARDS.authenticationRequired:
      return { kind: 'succeeded' };
    default:
      return null;
  }
}

/** How a kept sandbox card answers an off-session charge; written into its reference. */
export const KEPT_CARD_BEHAVIOURS = ['ok', 'declines', 'funds', 'auth', 'settles'] as const;
export type KeptCardBehaviour = (typeof KEPT_CARD_BEHAVIOURS)[number];

/** How a test card behaves once kept; null for one that cannot be kept (it is declined). */
export function keptCardBehaviour(cardNumber: string): KeptCardBehaviour | null {
  switch (cardNumber.replace(/\D/g, '')) {
    case SANDBOX_CARDS.success:
      return 'ok';
    // Kept through the card form (on the payment page its payment stays pending): a charge of
    // it is answered pending and has settled, paid, when it is next asked about (savedCharge).
    case SANDBOX_CARDS.pending:
      return 'settles';
    case SANDBOX_CARDS.declinesOffSession:
      return 'declines';
    case SANDBOX_CARDS.insufficientFunds:
      return 'funds';
    case SANDBOX_CARDS.authenticationRequired:
      return 'auth';
    default:
      return null;
  }
}

/** A fresh sandbox card reference: `pm_sb_<behaviour>_<random>`. */
export function sandboxMethodRef(behaviour: KeptCardBehaviour, random: string): string {
  return `pm_sb_${behaviour}_${random}`;
}

function behaviourOf(methodRef: string): KeptCardBehaviour | null {
  const match = /^pm_sb_([a-z]+)_[A-Za-z0-9]+$/.exec(methodRef);
  const behaviour = match?.[1];
  return KEPT_CARD_BEHAVIOURS.find((known) => known === behaviour) ?? null;
}

/** The off-session charge of a kept sandbox card. */
export function sandboxCharge(methodRef: string, idempotencyKey: string): SavedCardCharge {
  const reference = `pi_sb_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 24)}`;
  switch (behaviourOf(methodRef)) {
    case 'ok':
      return { status: 'succeeded', reference };
    case 'settles':
      return { status: 'pending', reference };
    case 'declines':
      return {
        status: 'declined',
        reason: { code: 'card_declined', message: 'Your card was declined.' },
        reference,
      };
    case 'funds':
      return {
        status: 'declined',
        reason: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
        reference,
      };
    case 'auth':
      return {
        status: 'requires_action',
        reason: {
          code: 'authentication_required',
          message: 'Your bank asks you to authenticate this payment.',
        },
        reference,
      };
    case null:
      return {
        status: 'declined',
        reason: { code: 'payment_method_unknown', message: 'This card is not known to the provider.' },
        reference: null,
      };
  }
}

/** The sandbox attached a card to a customer (Stripe's `payment_method.attached`). */
const cardEventSchema = z.object({
  id: z.string().min(1),
  type: z.literal('method.attached'),
  customer: z.string().min(1).max(100),
  payment_method: z.object({
    id: z.string().min(1).max(100),
    brand: z.string().min(1).max(30),
    last4: z.string().regex(/^\d{4}$/),
    exp_month: z.number().int().min(1).max(12),
    exp_year: z.number().int().min(2000).max(9999),
  }),
  created: z.number().int(),
});
export type SandboxCardEvent = z.infer<typeof cardEventSchema>;

const eventSchema = z.object({
  id: z.string().min(1),
  type: z.enum(['payment.succeeded', 'payment.failed', 'payment.pending']),
  session_id: z.string().min(1),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /** What the card page charged (minor units, ISO currency); matched against the session. */
  amount: z.number().int().optional(),
  currency: z.string().optional(),
  created: z.number().int(),
});
export type SandboxEvent = z.infer<typeof eventSchema>;

export function createSandboxProvider(options: {
  secret: string;
  publicUrl: string;
  ledger?: SandboxLedger;
  nowS?: () => number;
}): PaymentProvider {
  const nowS = options.nowS ?? (() => Math.floor(Date.now() / 1000));
  return {
    id: 'sandbox',
    createSession(input) {
      return Promise.resolve({
        url: `${options.publicUrl}/payments-sandbox/sessions/${input.sessionId}`,
        providerSessionId: input.sessionId,
      });
    },
    // The card page is ours: a session that is no longer open refuses to take a card.
    expireSession() {
      return Promise.resolve();
    },
    createCustomer(input) {
      return Promise.resolve({ customerRef: `cus_sb_${input.accountId.replace(/-/g, '')}` });
    },
    createSetup(input) {
      return Promise.resolve({
        url: `${options.publicUrl}/payments-sandbox/setups/${input.setupId}`,
        providerSetupId: input.setupId,
      });
    },
    chargeSaved(input) {
      const decide = () => sandboxCharge(input.methodRef, input.idempotencyKey);
      return options.ledger ? options.ledger.charge(input, decide) : Promise.resolve(decide());
    },
    async savedCharge(reference) {
      const kept = await options.ledger?.byReference(reference);
      if (!kept) {
        return {
          status: 'declined',
          reason: { code: 'payment_unknown', message: 'This charge is not known to the provider.' },
          reference,
        };
      }
      // A pending charge (the 0259 card's) has settled by the time anyone asks again.
      if (kept.status === 'pending') {
        const settled: SavedCardCharge = { status: 'succeeded', reference };
        await options.ledger?.settle(reference, settled);
        return settled;
      }
      return kept;
    },
    detachMethod() {
      return Promise.resolve();
    },
    refund(input) {
      return Promise.resolve({ reference: `re_sandbox_${input.idempotencyKey}` });
    },
    parseEvent(rawBody, headers): ProviderEvent | ProviderCardEvent {
      const header = headers[SANDBOX_SIGNATURE_HEADER];
      if (
        !verifySandboxSignature(
          options.secret,
          rawBody,
          typeof header === 'string' ? header : undefined,
          nowS(),
        )
      ) {
        throw new AppError('payment_signature_invalid');
      }
      let parsed: SandboxEvent | SandboxCardEvent;
      try {
        parsed = z.union([eventSchema, cardEventSchema]).parse(JSON.parse(rawBody));
      } catch {
        throw new AppError('payment_signature_invalid');
      }
      if (parsed.type === 'method.attached') {
        const method = parsed.payment_method;
        return {
          id: parsed.id,
          type: 'method.attached',
          card: {
            customerRef: parsed.customer,
            methodRef: method.id,
            brand: method.brand,
            last4: method.last4,
            expMonth: method.exp_month,
            expYear: method.exp_year,
          },
          attachedAt: new Date(parsed.created * 1000),
          payload: parsed,
        };
      }
      return {
        id: parsed.id,
        type: parsed.type,
        sessionId: parsed.session_id,
        ...(parsed.error ? { error: parsed.error } : {}),
        // Always stated, like Stripe's: an event that leaves out what it charged fails the match
        // (it used to skip it, so a signed event without amount and currency paid any order).
        charge: {
          providerSessionId: parsed.session_id,
          amountMinor: parsed.amount ?? null,
          currency: parsed.currency ?? null,
        },
        paymentReference: parsed.id,
        payload: parsed,
      };
    },
  };
}
