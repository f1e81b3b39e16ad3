// What every payment provider does for us: open a hosted payment page for an amount, close it
// again, pay back a payment, and turn its signed webhook request into one of three plain events
// (or a card kept). Kept cards: a customer per account, a card form that saves without charging,
// and a charge of the kept card without the customer (renewals) under an idempotency key.
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

/** A card as the provider describes it: its references and what Billing shows (never the number). */
export interface ProviderCard {
  customerRef: string;
  methodRef: string;
  /** Lower case, as Stripe names them: `visa`, `mastercard`, `amex`, `unknown`… */
  brand: string;
  last4: string;
  expMonth: number;
  /** Four digits. */
  expYear: number;
}

/** The provider attached a card to our customer: the account keeps it (replacing an older one). */
export interface ProviderCardEvent {
  id: string;
  type: 'method.attached';
  card: ProviderCard;
  /** When the provider attached it; a late event of an older card does not replace a newer one. */
  attachedAt: Date;
  payload: Record<string, unknown>;
}

/**
 * The provider detached a card from our customer (Stripe's `payment_method.detached`: removed in
 * its dashboard, or by another integration): an account keeping it keeps it no longer.
 */
export interface ProviderCardDetachedEvent {
  id: string;
  type: 'method.detached';
  methodRef: string;
  payload: Record<string, unknown>;
}

/**
 * An off-session charge of a kept card settled after it was answered `pending` (Stripe's
 * `payment_intent.succeeded` / `payment_intent.payment_failed` of a PaymentIntent we made
 * off-session): the renewal holding `reference` reads the outcome (savedCharge) at once.
 */
export interface ProviderChargeEvent {
  id: string;
  type: 'charge.settled';
  reference: string;
  payload: Record<string, unknown>;
}

/**
 * What charging a kept card without the customer (off-session) came to. `declined`: the card
 * refused (its code: `card_declined`, `insufficient_funds`, `expired_card`…); `requires_action`:
 * the bank wants the customer to authenticate (3-D Secure), so they must pay on a page;
 * `pending`: taken but not settled yet (not for cards in practice; its event settles it).
 * Anything else (the provider unreachable) throws: call again with the same idempotency key.
 */
export type SavedCardCharge =
  | { status: 'succeeded'; reference: string }
  | { status: 'declined'; reason: { code: string; message: string }; reference: string | null }
  | { status: 'requires_action'; reason: { code: string; message: string }; reference: string | null }
  | { status: 'pending'; reference: string };

export interface PaymentProvider {
  readonly id: 'sandbox' | 'stripe';
  createSession(input: {
    sessionId: string;
    amountMinor: number;
    currency: 'EUR';
    description: string;
    returnUrl: string;
    /** Keep the card for off-session charges: given, the page saves it to this customer. */
    saveFor?: { customerRef: string };
  }): Promise<{ url: string; providerSessionId: string }>;
  /** Our customer at the provider for an account (Stripe: a Customer); made once, stored by the caller. */
  createCustomer(input: { accountId: string; email: string; name: string }): Promise<{ customerRef: string }>;
  /** A card form that keeps a card for this customer and charges nothing. */
  createSetup(input: {
    setupId: string;
    customerRef: string;
    returnUrl: string;
  }): Promise<{ url: string; providerSetupId: string }>;
  /** Charges a kept card without the customer; the key makes a repeated call charge once. */
  chargeSaved(input: {
    customerRef: string;
    methodRef: string;
    amountMinor: number;
    currency: 'EUR';
    idempotencyKey: string;
    description: string;
  }): Promise<SavedCardCharge>;
  /** Where an off-session charge stands now, by its reference (a `pending` one settles later). */
  savedCharge(reference: string): Promise<SavedCardCharge>;
  /** Forgets a kept card at the provider (Stripe: detaches the PaymentMethod); no error when gone. */
  detachMethod(methodRef: string): Promise<void>;
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
  parseEvent(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): ProviderEvent | ProviderCardEvent | ProviderCardDetachedEvent | ProviderChargeEvent | null;
}
