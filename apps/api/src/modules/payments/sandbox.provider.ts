// The built-in sandbox provider: a hosted card page served by this app (its own routes under
// /payments-sandbox), test card numbers with fixed outcomes, and signed events delivered to the
// webhook like a real provider's, through the job queue (so they are retried). Its events state
// the amount and currency the card page showed, matched like Stripe's; a refund is simulated.
import { z } from 'zod';
import { SANDBOX_CARDS } from '@debesis/contract';
import { AppError } from '../../http/app-error.ts';
import type { PaymentProvider, ProviderEvent } from './provider.ts';
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
    default:
      return null;
  }
}

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
    refund(input) {
      return Promise.resolve({ reference: `re_sandbox_${input.idempotencyKey}` });
    },
    parseEvent(rawBody, headers): ProviderEvent {
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
      let parsed: SandboxEvent;
      try {
        parsed = eventSchema.parse(JSON.parse(rawBody));
      } catch {
        throw new AppError('payment_signature_invalid');
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
