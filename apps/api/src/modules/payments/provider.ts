// What every payment provider does for us: open a hosted payment page for an amount, and turn
// its signed webhook request into one of three plain events. The sandbox is the embedded
// default; Stripe is the production provider.
export interface ProviderEvent {
  /** The provider's own event id; replays carry the same one. */
  id: string;
  type: 'payment.succeeded' | 'payment.failed' | 'payment.pending';
  sessionId: string;
  error?: { code: string; message: string };
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
  /**
   * Verifies the signature and reads the event; throws `payment_signature_invalid`. Null for a
   * genuine event that concerns no payment (providers send many kinds).
   */
  parseEvent(rawBody: string, headers: Record<string, string | string[] | undefined>): ProviderEvent | null;
}
