// An invoice as issued: built once from the paid order, the buyer's billing info at that moment
// and the configured seller, then stored as it is (see billing.table.ts). Pure: no database.
import type { InvoiceLine, InvoiceParty, InvoiceType } from '@debesis/contract';
import type { OrderRow } from '../orders/orders.queries.ts';
import type { SellerDetails } from './billing.config.ts';
import type { StoredInvoiceDocument } from './billing.table.ts';

/** Invoice dates are the seller's calendar dates. */
export const INVOICE_TIME_ZONE = 'Europe/Vilnius';

const TYPE_OF_ORDER: Record<OrderRow['kind'], InvoiceType> = {
  new: 'PURCHASE',
  extension: 'RENEWAL',
  plan_change: 'PLAN_CHANGE',
};

export function invoiceTypeOf(kind: OrderRow['kind']): InvoiceType {
  return TYPE_OF_ORDER[kind];
}

/** `at` as a YYYY-MM-DD date in the seller's time zone. */
export function calendarDate(at: Date, timeZone = INVOICE_TIME_ZONE): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** PREFIX-YEAR-000123: six digits, more when a year needs them (never cut). */
export function formatInvoiceNumber(prefix: string, year: number, sequence: number): string {
  return `${prefix}-${year}-${String(sequence).padStart(6, '0')}`;
}

export interface InvoiceInput {
  id: string;
  number: string;
  order: OrderRow;
  seller: SellerDetails;
  buyer: InvoiceParty;
  /** When the payment completed: the invoice date and the date of supply. */
  at: Date;
  /** The service the order paid for, with the span it covers now that it is paid. */
  service: { id: string; name: string; validUntil: Date } | null;
  /** The span the payment bought, as the service stored it (absent: worked out from `service`). */
  period?: { start: Date; end: Date };
  paymentMethod: string;
}

function linesOf(order: OrderRow): InvoiceLine[] {
  const breakdown = order.breakdown;
  if (order.kind === 'plan_change' || breakdown.lines.length === 0) {
    return [
      {
        kind: order.kind === 'plan_change' ? 'plan_change' : 'base',
        product_name: order.productName,
        quantity: 1,
        unit_size: 1,
        unit_price: 0,
        months: order.months,
        amount: breakdown.period_subtotal,
      },
    ];
  }
  return breakdown.lines
    .filter((line) => line.amount !== 0 || line.kind === 'base')
    .map((line) => ({
      kind: line.kind,
      product_name: order.productName,
      quantity: line.quantity,
      unit_size: line.unit_size,
      unit_price: line.unit_price,
      months: line.months,
      amount: line.amount,
    }));
}

/**
 * The service span this invoice pays for: the span the payment bought as stored (a purchase's
 * first period, a renewal's added months); a plan change the rest of the paid span. A renewal
 * that bought nothing (its order was cancelled, the money became credit) names no span.
 */
function periodOf(input: InvoiceInput): { start: string | null; end: string | null } {
  const { order, service, at, period } = input;
  if (period) return { start: calendarDate(period.start), end: calendarDate(period.end) };
  if (!service || order.kind === 'extension') return { start: null, end: null };
  return { start: calendarDate(at), end: calendarDate(service.validUntil) };
}

export function buildInvoiceDocument(
  input: InvoiceInput,
): StoredInvoiceDocument & { service_name: string | null } {
  const { order } = input;
  const breakdown = order.breakdown;
  const credit = breakdown.credit_applied ?? order.creditAppliedMinor;
  const date = calendarDate(input.at);
  const period = periodOf(input);
  return {
    id: input.id,
    number: input.number,
    kind: 'invoice',
    type: invoiceTypeOf(order.kind),
    date,
    issued_at: input.at.toISOString(),
    supply_date: date,
    service_id: input.service?.id ?? order.serviceId,
    service_name: input.service?.name ?? order.serviceName,
    order_id: order.id,
    product_name: order.productName,
    period_start: period.start,
    period_end: period.end,
    currency: 'EUR',
    seller: input.seller.party,
    seller_bank_account: input.seller.iban,
    buyer: input.buyer,
    lines: linesOf(order),
    period_subtotal: breakdown.period_subtotal,
    discount_rate: breakdown.discount_rate,
    period_discount: breakdown.period_discount,
    subtotal: breakdown.subtotal,
    credit_applied: credit,
    net: breakdown.subtotal - credit,
    vat_rate: breakdown.vat_rate,
    vat_amount: breakdown.vat_amount,
    total: breakdown.total,
    reverse_charge: breakdown.reverse_charge,
    outside_scope: breakdown.outside_scope,
    legal_note_key: breakdown.legal_note_key,
    payment_method: input.paymentMethod,
  };
}
