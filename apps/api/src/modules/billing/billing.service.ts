// Billing (spec §2 billing, §3 Invoice and Billing info, §7 Billing calls): the account's billing
// info and its completeness, its invoices (list, detail, PDF, HTML preview), and issuing an
// invoice inside the transaction that marks an order paid, so a payment never exists without its
// invoice and the numbers stay gap-free. The confirmation mail goes out after the commit.
import { randomUUID } from 'node:crypto';
import {
  billingInfoMissing,
  type BillingInfo,
  type BillingInfoValues,
  type BillingSummary,
  type Invoice,
  type InvoiceList,
  type InvoiceListQuery,
  type InvoiceParty,
  type InvoiceReference,
  type Language,
  type UpdateBillingInfoRequest,
  updateBillingInfoRequestSchema,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import type { Executor, Tx } from '../../db/transaction.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { ActiveSession, SessionBoundReads } from '../auth/auth.queries.ts';
import type { OrderRow } from '../orders/orders.queries.ts';
import type { ServiceRow } from '../services/services.queries.ts';
import type { UserWithSettings } from '../users/users.queries.ts';
import type { SellerDetails } from './billing.config.ts';
import { paymentConfirmationMail } from './billing.mail.ts';
import {
  createBillingQueries,
  type BillingInfoRow,
  type InvoicePage,
  type InvoicePageParameters,
  type InvoiceRow,
} from './billing.queries.ts';
import { buildInvoiceDocument, calendarDate, formatInvoiceNumber } from './invoice.document.ts';
import { renderInvoiceHtml } from './invoice.html.ts';
import { renderInvoicePdf } from './invoice.pdf.ts';
import { assertVatNumber } from '../vies/vat-number.ts';

const EMPTY_ADDRESS = { street: '', city: '', state: '', postal_code: '', country: '' };

/** Until the owner saves billing info, it is prefilled from the account: company details or address. */
function prefilled(user: UserWithSettings): BillingInfoValues {
  if (user.company) {
    return {
      company_name: user.company.name,
      vat_number: user.company.vat_number ?? null,
      billing_address: { ...EMPTY_ADDRESS, ...user.company.address, country: user.company.country },
    };
  }
  return {
    company_name: null,
    vat_number: null,
    billing_address: { ...EMPTY_ADDRESS, ...(user.address ?? {}), country: user.country ?? '' },
  };
}

function fromRow(row: BillingInfoRow): BillingInfoValues {
  return {
    company_name: row.companyName,
    vat_number: row.vatNumber,
    billing_address: {
      street: row.street,
      city: row.city,
      state: row.state,
      postal_code: row.postalCode,
      country: row.country,
    },
  };
}

function present(values: BillingInfoValues, row: BillingInfoRow | undefined): BillingInfo {
  const missing = billingInfoMissing(values);
  return {
    ...values,
    complete: missing.length === 0,
    missing,
    saved: row !== undefined,
    updated_at: row ? row.updatedAt.toISOString() : null,
  };
}

export interface IssuedInvoice {
  id: string;
  number: string;
  accountId: string;
}

export interface BillingLog {
  error(details: object, message: string): void;
}

/**
 * What an invoice is made of, from the modules that own it (orders, users, services). Each read
 * takes the handle it runs on: an invoice is issued in its payment's transaction.
 */
export interface InvoiceSources {
  order: (db: Executor, id: string) => Promise<OrderRow | undefined>;
  ordersOf: (accountId: string) => Promise<OrderRow[]>;
  owner: (db: Executor, accountId: string) => Promise<UserWithSettings | undefined>;
  service: (db: Executor, accountId: string, serviceId: string) => Promise<ServiceRow | undefined>;
}

export function createBillingService(deps: {
  db: Db;
  sources: InvoiceSources;
  seller: SellerDetails;
  activity: Pick<ActivityService, 'record'>;
  /** Statements that read the caller's session along (the auth module's; see listForSession). */
  sessionBound: SessionBoundReads;
  /** Account credit before VAT (the credits module). */
  creditBalance: (accountId: string) => Promise<number>;
  sendMail: (message: MailMessage) => Promise<void>;
  publicUrl: string;
  log?: BillingLog;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  const queries = createBillingQueries(deps.db);
  const invoicePageRead = deps.sessionBound.prepare<InvoicePage, InvoicePageParameters>(
    'billing_invoices_for_session',
    (accountId) => queries.invoicePageOf(accountId),
  );

  async function owner(accountId: string): Promise<UserWithSettings> {
    const user = await deps.sources.owner(deps.db, accountId);
    if (!user) throw notFound();
    return user;
  }

  async function info(accountId: string): Promise<BillingInfo> {
    const [user, row] = await Promise.all([owner(accountId), queries.findInfo(accountId)]);
    return present(row ? fromRow(row) : prefilled(user), row);
  }

  /**
   * Stored documents as the contract's invoices. One issued before names were kept gets the
   * workspace's name now: one read per such workspace, none once every listed invoice has a name.
   */
  async function invoicesOf(
    accountId: string,
    rows: ReadonlyArray<Pick<InvoiceRow, 'document' | 'status'> & { creditNotes?: InvoiceReference[] }>,
  ): Promise<Invoice[]> {
    const unnamed = new Set(
      rows.flatMap(({ document }) =>
        document.service_name === undefined && document.service_id ? [document.service_id] : [],
      ),
    );
    const names = new Map(
      await Promise.all(
        [...unnamed].map(
          async (serviceId) =>
            [serviceId, (await deps.sources.service(deps.db, accountId, serviceId))?.name ?? null] as const,
        ),
      ),
    );
    return rows.map(
      ({ document: { service_name: stored, kind, credited_invoice, ...document }, status, creditNotes }) => ({
        ...document,
        // Documents issued before credit notes existed are invoices.
        kind: kind ?? 'invoice',
        credited_invoice: credited_invoice ?? null,
        credit_notes: creditNotes ?? [],
        service_name:
          stored !== undefined
            ? stored
            : document.service_id
              ? (names.get(document.service_id) ?? null)
              : null,
        status,
      }),
    );
  }

  async function invoiceOf(row: InvoiceRow): Promise<Invoice> {
    const creditNotes = row.kind === 'invoice' ? await queries.creditNotesOf(row.accountId, row.id) : [];
    const [invoice] = await invoicesOf(row.accountId, [{ ...row, creditNotes }]);
    return invoice!;
  }

  async function load(accountId: string, id: string): Promise<Invoice> {
    const row = await queries.findInvoice(accountId, id);
    if (!row) throw notFound();
    return invoiceOf(row);
  }

  async function languageOf(accountId: string, override: Language | undefined): Promise<Language> {
    return override ?? (await owner(accountId)).settings.language;
  }

  /** Numbers and stores the order's invoice (paid or unpaid), in `tx`. */
  async function issue(
    tx: Tx,
    order: OrderRow,
    payment: { at: Date; method: string; period?: { start: Date; end: Date }; status: 'paid' | 'unpaid' },
  ): Promise<IssuedInvoice | null> {
    const txBilling = createBillingQueries(tx);
    const user = await deps.sources.owner(tx, order.accountId);
    if (!user) return null;
    const row = await txBilling.findInfo(order.accountId);
    const values = row ? fromRow(row) : prefilled(user);
    const service = order.serviceId
      ? await deps.sources.service(tx, order.accountId, order.serviceId)
      : undefined;
    const buyer: InvoiceParty = {
      name: values.company_name || `${user.firstName} ${user.lastName}`.trim(),
      company_code: values.company_name ? (user.company?.code ?? null) : null,
      // A reverse charge rests on the VAT number the order was priced with: that one is printed.
      vat_number: order.breakdown.reverse_charge
        ? (order.customer.vat_number ?? values.vat_number)
        : values.vat_number,
      address: values.billing_address,
      email: user.email,
    };
    const issueDate = calendarDate(payment.at);
    const year = Number(issueDate.slice(0, 4));
    const sequence = await txBilling.nextSequence(year);
    const id = randomUUID();
    const number = formatInvoiceNumber(deps.seller.numberPrefix, year, sequence);
    const document = buildInvoiceDocument({
      id,
      number,
      order,
      seller: deps.seller,
      buyer,
      at: payment.at,
      service: service ? { id: service.id, name: service.name, validUntil: service.validUntil } : null,
      ...(payment.period ? { period: payment.period } : {}),
      paymentMethod: payment.method,
    });
    await txBilling.insertInvoice({
      id,
      accountId: order.accountId,
      number,
      year,
      sequence,
      orderId: order.id,
      serviceId: document.service_id,
      type: document.type,
      status: payment.status,
      issueDate,
      totalMinor: document.total,
      currency: 'EUR',
      language: user.settings.language,
      document,
      issuedAt: payment.at,
    });
    return { id, number, accountId: order.accountId };
  }

  return {
    info,

    async summary(accountId: string): Promise<BillingSummary> {
      const [billingInfo, orders, credit, totals] = await Promise.all([
        info(accountId),
        deps.sources.ordersOf(accountId),
        deps.creditBalance(accountId),
        queries.totals(accountId),
      ]);
      const unpaid = orders.filter(
        (order) => order.status === 'AWAITING_PAYMENT' || order.status === 'FAILED',
      );
      return {
        billing_info: billingInfo,
        completeness: { complete: billingInfo.complete, missing: billingInfo.missing },
        outstanding: {
          amount: unpaid.reduce((sum, order) => sum + order.amountMinor, 0),
          count: unpaid.length,
          currency: 'EUR',
        },
        credit: { balance: credit, currency: 'EUR' },
        invoices: { count: totals.count, total_paid: totals.paid },
      };
    },

    /** Spec §3 completeness is enforced by the request schema; the VAT number is also checked by checksum. */
    async updateInfo(
      accountId: string,
      request: UpdateBillingInfoRequest,
      meta: { ip: string | null },
    ): Promise<BillingInfo> {
      await owner(accountId);
      const values = updateBillingInfoRequestSchema.parse(request);
      assertVatNumber(values.vat_number, values.billing_address.country, 'vat_number');
      await queries.saveInfo({
        accountId,
        companyName: values.company_name,
        vatNumber: values.vat_number,
        street: values.billing_address.street,
        city: values.billing_address.city,
        state: values.billing_address.state,
        postalCode: values.billing_address.postal_code,
        country: values.billing_address.country,
        updatedAt: now(),
      });
      await deps.activity.record({
        accountId,
        action: 'billing info updated',
        tone: 'info',
        ip: meta.ip,
        details: { company: values.company_name !== null },
      });
      return info(accountId);
    },

    /**
     * The account's invoices read in the statement that checks the caller's session (one round
     * trip): `admit` admits the session read or throws, before anything is shown.
     */
    async listForSession(
      sessionId: string,
      query: InvoiceListQuery,
      admit: (session: ActiveSession | undefined) => void,
    ): Promise<InvoiceList> {
      const { session, value } = await invoicePageRead(sessionId, {
        startDate: query.start_date ?? null,
        endDate: query.end_date ?? null,
        type: query.payment_type ?? null,
        kind: query.kind ?? null,
        status: query.status ?? null,
        serviceId: query.service_id ?? null,
        limit: query.per_page,
        offset: (query.page - 1) * query.per_page,
      });
      admit(session);
      const total = Number(value?.total ?? 0);
      const rows = (value?.items ?? []).map(([document, status, creditNotes]) => ({
        document,
        status,
        creditNotes,
      }));
      // An owner's account is their user id; a session `admit` refused never gets here.
      const listed = session ? await invoicesOf(session.userId, rows) : [];
      return {
        items: listed.map((invoice) => {
          return {
            id: invoice.id,
            number: invoice.number,
            kind: invoice.kind,
            type: invoice.type,
            status: invoice.status,
            date: invoice.date,
            issued_at: invoice.issued_at,
            service_id: invoice.service_id,
            service_name: invoice.service_name,
            order_id: invoice.order_id,
            product_name: invoice.product_name,
            period_start: invoice.period_start,
            period_end: invoice.period_end,
            currency: invoice.currency,
            net: invoice.net,
            vat_rate: invoice.vat_rate,
            vat_amount: invoice.vat_amount,
            total: invoice.total,
            credited_invoice: invoice.credited_invoice,
            credit_notes: invoice.credit_notes,
          };
        }),
        page: query.page,
        per_page: query.per_page,
        total,
        pages: Math.max(1, Math.ceil(total / query.per_page)),
      };
    },

    get: load,

    async pdf(accountId: string, id: string, lang?: Language) {
      const invoice = await load(accountId, id);
      const language = await languageOf(accountId, lang);
      return { filename: `${invoice.number}.pdf`, body: await renderInvoicePdf(invoice, language) };
    },

    async preview(accountId: string, id: string, lang?: Language): Promise<string> {
      const invoice = await load(accountId, id);
      return renderInvoiceHtml(invoice, await languageOf(accountId, lang));
    },

    /**
     * Issues the invoice of a paid order, inside the payment's transaction (`tx`): the number is
     * taken there, so a rollback gives it back. A second call for the same order finds the first;
     * an unpaid one issued before (a renewal its kept card did not pay) is paid now, no second one.
     */
    async issueInTransaction(
      tx: Tx,
      orderId: string,
      payment: { at: Date; method: string; period?: { start: Date; end: Date } },
    ): Promise<IssuedInvoice | null> {
      const order = await deps.sources.order(tx, orderId);
      if (!order || order.status !== 'PAID') return null;
      const txBilling = createBillingQueries(tx);
      const existing = await txBilling.findInvoiceForOrder(order.accountId, order.id);
      if (existing) {
        if (existing.status === 'unpaid') await txBilling.markInvoiceOfOrderPaid(order.accountId, order.id);
        return { id: existing.id, number: existing.number, accountId: existing.accountId };
      }
      return issue(tx, order, { ...payment, status: 'paid' });
    },

    /** Whether the order's invoice was issued unpaid and waits for this payment (a renewal's). */
    async hasUnpaidInvoice(tx: Tx, accountId: string, orderId: string): Promise<boolean> {
      const existing = await createBillingQueries(tx).findInvoiceForOrder(accountId, orderId);
      return existing?.status === 'unpaid';
    },

    /**
     * Issues the invoice of an order still awaiting payment as `unpaid` (a renewal its kept card
     * did not pay: dunning), in the same series as the paid ones. Paying the order later marks
     * this one paid (issueInTransaction). A second call finds the first.
     */
    async issueUnpaidInTransaction(
      tx: Tx,
      orderId: string,
      input: { at: Date; method: string; period?: { start: Date; end: Date } },
    ): Promise<IssuedInvoice | null> {
      const order = await deps.sources.order(tx, orderId);
      if (!order || (order.status !== 'AWAITING_PAYMENT' && order.status !== 'FAILED')) return null;
      const existing = await createBillingQueries(tx).findInvoiceForOrder(order.accountId, order.id);
      if (existing) return { id: existing.id, number: existing.number, accountId: existing.accountId };
      return issue(tx, order, { ...input, status: 'unpaid' });
    },

    /** An owner's unpaid invoice, with its order: what a payment by the invoice's link pays. */
    async unpaidInvoice(accountId: string, invoiceId: string): Promise<{ id: string; orderId: string }> {
      const row = await queries.findInvoice(accountId, invoiceId);
      if (!row || row.kind !== 'invoice') throw notFound();
      if (row.status !== 'unpaid' || !row.orderId) throw new AppError('invoice_not_payable');
      return { id: row.id, orderId: row.orderId };
    },

    /** After the commit: the payment confirmation with the PDF. A failure is logged, never undoes the payment. */
    async afterIssued(issued: IssuedInvoice): Promise<void> {
      try {
        const row = await queries.findInvoice(issued.accountId, issued.id);
        if (!row) return;
        const user = await deps.sources.owner(deps.db, row.accountId);
        if (!user) return;
        const invoice = await invoiceOf(row);
        const language = user.settings.language;
        await deps.sendMail(
          paymentConfirmationMail({
            to: user.email,
            firstName: user.firstName,
            language,
            invoice,
            pdf: await renderInvoicePdf(invoice, language),
            link: `${deps.publicUrl}/dashboard/billing`,
          }),
        );
      } catch (error) {
        deps.log?.error({ err: error, invoiceId: issued.id }, 'payment confirmation mail not sent');
      }
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
/** What the payment path needs from billing. */
export type InvoiceIssuer = Pick<BillingService, 'issueInTransaction' | 'afterIssued' | 'hasUnpaidInvoice'>;
