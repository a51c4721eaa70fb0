/**
 * The one seam between billing and whoever takes the money. The bundled provider is the local test-mode one
 * (local-provider.ts); a Stripe adapter implements the same interface (README.md "Subscription" says what maps where)
 * and nothing else changes. Amounts are in cents (USD); nothing here ever sees a stored card number.
 */
import type { CardBehaviour } from '../../../contract/constants/billing.ts';

/** A card as typed at checkout (the number only passes through to the provider). */
export type CardInput = { number: string; expMonth: number; expYear: number; cvc: string };

/** A payment method as the provider knows it and billing stores it: a token, brand and last four. */
export type PaymentMethodRef = {
  token: string;
  brand: string;
  last4: string;
  /** The local test provider's: what charging this card does. Other providers leave it null. */
  behaviour: CardBehaviour | null;
};

/** What is being paid for, as the provider records it. */
export type ChargeRequest = {
  spaceId: string;
  amountCents: number;
  description: string;
  /** The same key never charges twice at the provider (Stripe's Idempotency-Key). */
  idempotencyKey: string;
  /** An off-session charge of a stored card (renewals) rather than one the owner is present for. */
  offSession: boolean;
};

/** A payment created at the provider, still to be confirmed. */
export type Checkout = { paymentId: string; paymentMethod: PaymentMethodRef };

export type PaymentOutcome =
  | { status: 'succeeded'; paymentId: string }
  | { status: 'failed'; paymentId: string; code: 'card_declined' | 'insufficient_funds'; message: string };

/** A card refused before any payment exists (not a valid number, expired). */
export class CardRejected extends Error {
  readonly field: 'number' | 'expMonth' | 'expYear' | 'cvc';
  constructor(field: 'number' | 'expMonth' | 'expYear' | 'cvc', message: string) {
    super(message);
    this.field = field;
  }
}

/** An event the provider sends (a webhook), once its signature is verified. */
export type ProviderEvent = { id: string; type: string; data: Record<string, unknown> };

/** An invoice as the provider lists it (for reconciling with ours). */
export type ProviderInvoice = {
  paymentId: string;
  amountCents: number;
  status: 'succeeded' | 'failed' | 'refunded';
  createdAt: Date;
};

export interface BillingProvider {
  /** True for a provider that takes no real money: every page and receipt then says so. */
  readonly testMode: boolean;
  /**
   * Creates a payment for `charge` with a new card (tokenised; the number goes no further) or a stored payment
   * method. Throws CardRejected when the card cannot be used at all.
   */
  createCheckout(
    charge: ChargeRequest,
    with_: { card: CardInput; paymentMethod?: undefined } | { card?: undefined; paymentMethod: PaymentMethodRef },
  ): Promise<Checkout>;
  /** Confirms (captures) a payment created by createCheckout: succeeded, or failed with the provider's reason. */
  confirmPayment(checkout: Checkout, charge: ChargeRequest): Promise<PaymentOutcome>;
  /** Refunds a succeeded payment in full; answers the provider's refund id. */
  refund(input: { paymentId: string; amountCents: number; idempotencyKey: string }): Promise<{ refundId: string }>;
  /** Checks a provider event's signature against the raw body; the event, or null when the signature is wrong. */
  verifyEvent(rawBody: string, signature: string, now: Date): ProviderEvent | null;
  /** The provider's invoices (payments) of a space, newest first. */
  listInvoices(spaceId: string): Promise<ProviderInvoice[]>;
}
