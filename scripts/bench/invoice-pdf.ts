// Time to render one invoice PDF (pdfkit, Roboto subset embedded): the median of 50 renders of a
// typical invoice, after five warm-up renders (the first parses the fonts). In process: no server.
import type { Invoice } from '@debesis/contract';
import { renderInvoicePdf } from '../../apps/api/src/modules/billing/invoice.pdf.ts';

const RUNS = 50;

const SAMPLE: Invoice = {
  id: '00000000-0000-4000-8000-000000000001',
  number: 'DEB-2026-000123',
  kind: 'invoice',
  type: 'PURCHASE',
  status: 'paid',
  date: '2026-11-21',
  issued_at: '2026-11-21T10:00:00.000Z',
  supply_date: '2026-11-21',
  service_id: '7d1f0a52-3c4b-4e8a-9f61-2b5c8d7e9a01',
  service_name: 'Team drive',
  order_id: '00000000-0000-4000-8000-000000000002',
  product_name: 'MINI',
  period_start: '2026-11-21',
  period_end: '2027-11-21',
  currency: 'EUR',
  credited_invoice: null,
  credit_notes: [],
  seller: {
    name: 'UAB „Debesis“',
    company_code: '300000000',
    vat_number: 'LT100000000017',
    address: { street: 'Gedimino pr. 1', city: 'Vilnius', state: '', postal_code: 'LT-01103', country: 'LT' },
    email: 'billing@debesis.localhost',
  },
  seller_bank_account: 'LT12 1000 0111 0100 1000',
  buyer: {
    name: 'Beispiel GmbH',
    company_code: 'HRB 12345',
    vat_number: 'DE136695976',
    address: { street: 'Unter den Linden 1', city: 'Berlin', state: '', postal_code: '10117', country: 'DE' },
    email: 'buyer@example.de',
  },
  lines: [
    {
      kind: 'base',
      product_name: 'MINI',
      quantity: 1,
      unit_size: 1,
      unit_price: 1499,
      months: 12,
      amount: 17988,
    },
    {
      kind: 'disk_space',
      product_name: 'MINI',
      quantity: 2,
      unit_size: 50,
      unit_price: 300,
      months: 12,
      amount: 7200,
    },
    {
      kind: 'users',
      product_name: 'MINI',
      quantity: 3,
      unit_size: 1,
      unit_price: 100,
      months: 12,
      amount: 3600,
    },
  ],
  period_subtotal: 28788,
  discount_rate: 10,
  period_discount: 2879,
  subtotal: 25909,
  credit_applied: 0,
  net: 25909,
  vat_rate: 0,
  vat_amount: 0,
  total: 25909,
  reverse_charge: true,
  outside_scope: false,
  legal_note_key: 'reverse_charge',
  payment_method: 'sandbox',
};

export interface InvoicePdfFigures {
  medianMs: number;
  p90Ms: number;
  bytes: number;
}

export async function measureInvoicePdf(): Promise<InvoicePdfFigures> {
  let bytes = 0;
  // Warm-up: the fonts are parsed once per process and the JIT settles after a few documents.
  for (let run = 0; run < 5; run += 1) bytes = (await renderInvoicePdf(SAMPLE, 'lt')).length;
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    bytes = (await renderInvoicePdf(SAMPLE, run % 2 === 0 ? 'en' : 'lt')).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (fraction: number) =>
    times[Math.min(times.length - 1, Math.floor(fraction * times.length))] ?? 0;
  return { medianMs: Math.round(at(0.5) * 10) / 10, p90Ms: Math.round(at(0.9) * 10) / 10, bytes };
}

export function printInvoicePdf(figures: InvoicePdfFigures): void {
  console.log(
    `\nInvoice PDF (pdfkit, en/lt alternating, ${RUNS} renders): median ${figures.medianMs} ms, p90 ${figures.p90Ms} ms, ${Math.round(figures.bytes / 1024)} kB`,
  );
}
