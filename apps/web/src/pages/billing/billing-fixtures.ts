// Billing answers for the page tests: a summary, invoices and the fake API handlers for them.
import type { BillingInfo, BillingSummary, InvoiceSummary } from '@debesis/contract';
import { http, HttpResponse } from 'msw';

export const SERVICE_A = '7d1f0a52-3c4b-4e8a-9f61-2b5c8d7e9a01';

export function makeInvoice(overrides: Partial<InvoiceSummary> = {}): InvoiceSummary {
  return {
    id: '0b7f6c1e-4a55-4f7e-8b35-9d0c1a2b3c01',
    number: 'DEB-2026-000001',
    kind: 'invoice',
    type: 'PURCHASE',
    status: 'paid',
    date: '2026-11-21',
    issued_at: '2026-11-21T10:00:00.000Z',
    service_id: SERVICE_A,
    service_name: 'Team drive',
    order_id: 'f1d2c3b4-0000-4000-8000-000000000001',
    product_name: 'MINI',
    period_start: '2026-11-21',
    period_end: '2027-11-21',
    currency: 'EUR',
    net: 161892,
    vat_rate: 21,
    vat_amount: 33997,
    total: 195889,
    credited_invoice: null,
    credit_notes: [],
    ...overrides,
  };
}

export function makeBillingInfo(overrides: Partial<BillingInfo> = {}): BillingInfo {
  return {
    company_name: null,
    vat_number: null,
    billing_address: {
      street: 'Gedimino pr. 9',
      city: 'Vilnius',
      state: '',
      postal_code: 'LT-01103',
      country: 'LT',
    },
    complete: true,
    missing: [],
    saved: true,
    updated_at: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

export function makeSummary(info: BillingInfo = makeBillingInfo()): BillingSummary {
  return {
    billing_info: info,
    completeness: { complete: info.complete, missing: info.missing },
    outstanding: { amount: 0, count: 0, currency: 'EUR' },
    credit: { balance: 1250, currency: 'EUR' },
    invoices: { count: 1, total_paid: 195889 },
  };
}

export function summaryHandler(summary: BillingSummary = makeSummary()) {
  return http.get('/api/v1/billing/', () => HttpResponse.json(summary));
}

/** Pages `all` by the request's page and per_page (default 10), and records each query string. */
export function invoicesHandler(all: InvoiceSummary[], seen: URLSearchParams[] = []) {
  return http.get('/api/v1/billing/invoices', ({ request }) => {
    const query = new URL(request.url).searchParams;
    seen.push(query);
    const page = Number(query.get('page') ?? 1);
    const perPage = Number(query.get('per_page') ?? 10);
    const type = query.get('payment_type');
    const kind = query.get('kind');
    const status = query.get('status');
    const matching = all.filter(
      (invoice) =>
        (!type || invoice.type === type) &&
        (!kind || invoice.kind === kind) &&
        (!status || invoice.status === status),
    );
    return HttpResponse.json({
      items: matching.slice((page - 1) * perPage, page * perPage),
      page,
      per_page: perPage,
      total: matching.length,
      pages: Math.max(1, Math.ceil(matching.length / perPage)),
    });
  });
}
