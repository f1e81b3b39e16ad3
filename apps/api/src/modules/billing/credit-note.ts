// Credit notes (issue 38): money given back on an invoice is a document of its own, never a
// change of the invoice (the table refuses that). A credit note references its invoice, takes a
// number of its own gap-free series (CN-YEAR-000001, counted like the invoices' in the
// transaction that records the refund, so a rollback gives the number back), carries the
// invoice's parties, type, service and VAT treatment, and its amounts are negative. Several
// partial credit notes may credit one invoice; together they never exceed its total. Their VAT
// follows the invoice's split cumulatively, so the notes of a fully credited invoice add up to
// exactly its VAT.
import { randomUUID } from 'node:crypto';
import type { Invoice, InvoiceReference } from '@debesis/contract';
import type { MailMessage } from '../../mail/mailer.ts';
import type { UserWithSettings } from '../users/users.queries.ts';
import { creditNoteMail } from './billing.mail.ts';
import { renderInvoicePdf } from './invoice.pdf.ts';
import type { Executor, Tx } from '../../db/transaction.ts';
import { createBillingQueries, type Credited, type InvoiceRow } from './billing.queries.ts';
import type { StoredInvoiceDocument } from './billing.table.ts';
import { calendarDate, formatInvoiceNumber } from './invoice.document.ts';

export interface CreditNoteInput {
  id: string;
  number: string;
  /** The invoice credited, as issued. */
  invoice: StoredInvoiceDocument & { id: string; number: string };
  /** What this note gives back, positive minor units (VAT included). */
  amountMinor: number;
  /** What earlier credit notes of the invoice gave back. */
  before: Credited;
  at: Date;
  /** How the money went back: the provider's name. */
  paymentMethod: string;
}

/** The VAT part of `gross` given back, so that the notes of an invoice add up to its VAT exactly. */
function vatPart(invoice: Pick<Invoice, 'total' | 'vat_amount'>, before: Credited, gross: number): number {
  if (invoice.total <= 0) return 0;
  const after = Math.round(((before.total + gross) * invoice.vat_amount) / invoice.total);
  return after - before.vat;
}

export function buildCreditNoteDocument(input: CreditNoteInput): StoredInvoiceDocument {
  const { invoice, amountMinor } = input;
  const vat = vatPart(invoice, input.before, amountMinor);
  const net = amountMinor - vat;
  const date = calendarDate(input.at);
  return {
    id: input.id,
    number: input.number,
    kind: 'credit_note',
    credited_invoice: { id: invoice.id, number: invoice.number, total: invoice.total },
    type: invoice.type,
    date,
    issued_at: input.at.toISOString(),
    supply_date: date,
    service_id: invoice.service_id,
    service_name: invoice.service_name ?? null,
    order_id: invoice.order_id,
    product_name: invoice.product_name,
    period_start: invoice.period_start,
    period_end: invoice.period_end,
    currency: 'EUR',
    seller: invoice.seller,
    seller_bank_account: invoice.seller_bank_account,
    buyer: invoice.buyer,
    lines: [
      {
        kind: 'credit',
        product_name: invoice.product_name,
        quantity: 1,
        unit_size: 1,
        unit_price: 0,
        months: 0,
        amount: -net,
      },
    ],
    period_subtotal: -net,
    discount_rate: 0,
    period_discount: 0,
    subtotal: -net,
    credit_applied: 0,
    net: -net,
    vat_rate: invoice.vat_rate,
    vat_amount: -vat,
    total: -amountMinor,
    reverse_charge: invoice.reverse_charge,
    outside_scope: invoice.outside_scope,
    legal_note_key: invoice.legal_note_key,
    payment_method: input.paymentMethod,
  };
}

/** The invoice a payment of `orderId` paid, with what is left to credit on it. */
export interface CreditableInvoice {
  id: string;
  number: string;
  serviceId: string | null;
  total: number;
  credited: Credited;
  creditNotes: InvoiceReference[];
}

export async function creditableInvoiceForOrder(
  db: Executor,
  accountId: string,
  orderId: string,
): Promise<CreditableInvoice | undefined> {
  const queries = createBillingQueries(db);
  const invoice = await queries.findInvoiceForOrder(accountId, orderId);
  if (!invoice) return undefined;
  const [credited, creditNotes] = await Promise.all([
    queries.creditedOn(accountId, invoice.id),
    queries.creditNotesOf(accountId, invoice.id),
  ]);
  return {
    id: invoice.id,
    number: invoice.number,
    serviceId: invoice.serviceId,
    total: invoice.totalMinor,
    credited,
    creditNotes,
  };
}

export class CreditExceedsInvoice extends Error {
  constructor(
    readonly invoiceNumber: string,
    readonly left: number,
  ) {
    super(`the credit notes of invoice ${invoiceNumber} would exceed its total (${left} minor units left)`);
  }
}

/**
 * Issues a credit note of `amountMinor` on the invoice `invoiceId`, inside the transaction that
 * records the refund (`tx`). Refuses (CreditExceedsInvoice, nothing written) an amount that would
 * take the invoice's credit notes past its total; the caller reserves the amount first, under a
 * lock, so this is the last guard, not the first.
 */
export async function issueCreditNoteInTransaction(
  tx: Tx,
  input: {
    accountId: string;
    invoiceId: string;
    amountMinor: number;
    at: Date;
    prefix: string;
    paymentMethod: string;
  },
): Promise<InvoiceRow> {
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0)
    throw new Error(`a credit note gives back a positive amount, not ${input.amountMinor}`);
  const queries = createBillingQueries(tx);
  const invoice = await queries.findInvoice(input.accountId, input.invoiceId);
  if (!invoice || invoice.kind !== 'invoice') throw new Error(`no invoice ${input.invoiceId} to credit`);
  const before = await queries.creditedOn(input.accountId, invoice.id);
  if (before.total + input.amountMinor > invoice.totalMinor)
    throw new CreditExceedsInvoice(invoice.number, invoice.totalMinor - before.total);
  const issueDate = calendarDate(input.at);
  const year = Number(issueDate.slice(0, 4));
  const sequence = await queries.nextCreditNoteSequence(year);
  const id = randomUUID();
  const number = formatInvoiceNumber(input.prefix, year, sequence);
  const document = buildCreditNoteDocument({
    id,
    number,
    invoice: { ...invoice.document, id: invoice.id, number: invoice.number },
    amountMinor: input.amountMinor,
    before,
    at: input.at,
    paymentMethod: input.paymentMethod,
  });
  return queries.insertInvoice({
    id,
    accountId: invoice.accountId,
    kind: 'credit_note',
    number,
    year,
    sequence,
    orderId: invoice.orderId,
    serviceId: invoice.serviceId,
    creditedInvoiceId: invoice.id,
    type: invoice.type,
    status: 'paid',
    issueDate,
    totalMinor: document.total,
    currency: 'EUR',
    language: invoice.language,
    document,
    issuedAt: input.at,
  });
}

/** A stored credit note as the contract's document. */
export function creditNoteOf(row: InvoiceRow): Invoice {
  const { service_name, kind: _kind, credited_invoice, ...document } = row.document;
  return {
    ...document,
    kind: 'credit_note',
    credited_invoice: credited_invoice ?? null,
    credit_notes: [],
    service_name: service_name ?? null,
    status: row.status,
  };
}

/**
 * The mail that tells the owner of a refund, with the credit note's PDF in their language
 * (`creditNoteMail`); undefined when the credit note or its owner is gone.
 */
export async function creditNoteMessage(
  db: Executor,
  deps: { owner: (accountId: string) => Promise<UserWithSettings | undefined>; publicUrl: string },
  accountId: string,
  creditNoteId: string,
): Promise<MailMessage | undefined> {
  const row = await createBillingQueries(db).findInvoice(accountId, creditNoteId);
  const user = await deps.owner(accountId);
  if (!row || row.kind !== 'credit_note' || !user) return undefined;
  const creditNote = creditNoteOf(row);
  const language = user.settings.language;
  return creditNoteMail({
    to: user.email,
    firstName: user.firstName,
    language,
    creditNote,
    pdf: await renderInvoicePdf(creditNote, language),
    link: `${deps.publicUrl}/dashboard/billing`,
  });
}
