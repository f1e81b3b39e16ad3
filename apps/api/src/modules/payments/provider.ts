// What every payment provider does for us: open a hosted payment page for an amount, close it
// again, pay back a payment, and turn its signed webhook request into one of three plain events.
// The sandbox is the embedded default; Stripe is the production provider.
export interface ProviderEvent {
  /** The provider's own event id; replays carry the same one. */
  id: string;
  type: 'payment.succeeded' | 'payment.failed' | 'payment.pending';
  sessionId: string;
  error?: { code: string; message: string };
  /**
   * What the provider says the page was and what it charged, matched against the payment
   * session before the event counts. Null where the event leaves a value out (which then fails
   * the match). Every provider states it; only the account credit's own event (no provider, no
   * money moved) goes without, and a provider's success or pending event without it is refused.
   */
  charge?: { providerSessionId: string | null; amountMinor: number | null; currency: string | null };
  /** The provider's id of the payment itself (Stripe: the PaymentIntent), to pay it back. */
  paymentReference?: string | null;
  payload: Record<string, unknown>;
}

export interface PaymentProvider {
  readonly id: 'sandbox' | 'stripe';
  createSession(input: {
    sessionId: string;
    amountMinor: number;
    currency: 'EUR';
    description: string;
    returnUrl: string;
  }): Promise<{ url: string; providerSessionId: string }>;
  /** Closes a hosted page that must not take money any more (its order was cancelled or paid). */
  expireSession(providerSessionId: string): Promise<void>;
  /** Pays a payment back, whole or `amountMinor` of it; the key makes a repeated call refund once. */
  refund(input: {
    paymentReference: string;
    amountMinor: number;
    currency: 'EUR';
    idempotencyKey: string;
  }): Promise<{ reference: string }>;
  /**
   * Verifies the signature and reads the event; throws `payment_signature_invalid`. Null for a
   * genuine event that concerns no payment (providers send many kinds).
   */
  parseEvent(rawBody: string, headers: Record<string, string | string[] | undefined>): ProviderEvent | null;
}
