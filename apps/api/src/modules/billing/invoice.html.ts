// An invoice as a self-contained HTML page (GET …/invoices/{id}/preview): the same rows, sums and
// VAT wording as the PDF (the helpers are shared), inline styles only, no scripts.
import type { Invoice, Language } from '@debesis/contract';
import { escapeHtml as e } from '../../http/html.ts';
import {
  documentTitle,
  legalNotes,
  lineDescription,
  metaRows,
  partyLines,
  paymentNote,
  totalRows,
} from './invoice.pdf.ts';
import { INVOICE_TEXTS, invoiceMoney } from './invoice.texts.ts';

const STYLE = `body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#0f172a;margin:0;padding:24px;background:#fff;font-size:14px;line-height:1.45}
.invoice{max-width:760px;margin:auto}header{display:flex;justify-content:space-between;gap:16px;align-items:flex-start;border-bottom:2px solid #0f172a;padding-bottom:12px}
h1{font-size:22px;margin:0}h2{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:#475569;margin:0 0 4px}
.number{font-size:16px;font-weight:600;text-align:right}.parties{display:grid;grid-template-columns:1fr 1fr;gap:24px;margin:20px 0}
.parties p{margin:0}.name{font-weight:600}dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0 0 20px}dt{color:#475569}dd{margin:0}
table{width:100%;border-collapse:collapse}th,td{padding:6px 4px;border-bottom:1px solid #e2e8f0;text-align:right}th:first-child,td:first-child{text-align:left}
th{color:#475569;font-weight:600;font-size:12px}.totals{margin:12px 0 0 auto;width:min(100%,360px)}.totals td{border:0;padding:3px 4px}
.totals .strong td{font-weight:700;font-size:16px;border-top:2px solid #0f172a}.notes{margin-top:20px}.notes p{margin:2px 0}.muted{color:#475569}`;

export function renderInvoiceHtml(invoice: Invoice, language: Language): string {
  const texts = INVOICE_TEXTS[language];
  const money = (amount: number) => invoiceMoney(amount, language);
  const party = (
    title: string,
    value: Invoice['seller'],
    testId: string,
  ) => `<section data-testid="${testId}">
<h2>${e(title)}</h2><p class="name">${e(value.name)}</p>${partyLines(value, language)
    .map((line) => `<p>${e(line)}</p>`)
    .join('')}</section>`;
  const lines = invoice.lines
    .map(
      (line) =>
        `<tr><td>${e(lineDescription(line, texts))}</td><td>${line.quantity}</td><td>${
          line.kind === 'plan_change' || line.kind === 'credit' ? '' : e(money(line.unit_price))
        }</td><td>${line.months > 0 ? line.months : ''}</td><td>${e(money(line.amount))}</td></tr>`,
    )
    .join('');
  const totals = totalRows(invoice, language)
    .map(
      (row) =>
        `<tr${row.strong ? ' class="strong" data-testid="invoice-total"' : ''}><td>${e(row.label)}</td><td>${e(row.value)}</td></tr>`,
    )
    .join('');
  const title = documentTitle(invoice, texts);
  const notes = legalNotes(invoice, language)
    .map((note) => `<p data-testid="invoice-legal-note">${e(note)}</p>`)
    .join('');
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(title)} ${e(invoice.number)}</title><style>${STYLE}</style></head><body><article class="invoice">
<header><h1>${e(invoice.seller.name)}</h1><div><div data-testid="invoice-title">${e(title)}</div><div class="number" data-testid="invoice-number">${e(invoice.number)}</div></div></header>
<div class="parties">${party(texts.seller, invoice.seller, 'invoice-seller')}${party(texts.buyer, invoice.buyer, 'invoice-buyer')}</div>
<dl>${metaRows(invoice, language)
    .map(([label, value]) => `<dt>${e(label)}</dt><dd>${e(value)}</dd>`)
    .join('')}</dl>
<table><thead><tr><th>${e(texts.description)}</th><th>${e(texts.quantity)}</th><th>${e(texts.unitPrice)}</th><th>${e(texts.months)}</th><th>${e(texts.amount)}</th></tr></thead><tbody>${lines}</tbody></table>
<table class="totals"><tbody>${totals}</tbody></table>
<div class="notes">${notes}<p class="muted">${e(paymentNote(invoice, language))}</p>${
    invoice.seller_bank_account
      ? `<p class="muted">${e(texts.bankAccount)}: ${e(invoice.seller_bank_account)}</p>`
      : ''
  }${invoice.seller.email ? `<p class="muted">${e(texts.questions(invoice.seller.email))}</p>` : ''}</div>
</article></body></html>`;
}
