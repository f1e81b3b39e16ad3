// An invoice as a PDF, drawn with pdfkit (maintained, pure JavaScript, embeds TrueType fonts as
// subsets so the text stays selectable and searchable). The font is Roboto from an npm package:
// the standard 14 PDF fonts have no ą č ę ė į š ų ū ž, and `npm install` alone must be enough.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import type { Invoice, InvoiceLine, Language } from '@debesis/contract';
import { INVOICE_TEXTS, invoiceMoney, invoicePercent, type InvoiceTexts } from './invoice.texts.ts';

const require = createRequire(import.meta.url);

type ParsedFont = fontkit.Font;
let fonts: { regular: ParsedFont; bold: ParsedFont } | null = null;

/**
 * A parsed font caches each glyph with the characters it was first asked for. Embedding a letter
 * drawn from parts (ž is z and a caron) asks for the part by number, with no character: cached so,
 * every later document of the process (the API renders for weeks) had a z, an e or an a that
 * could not be searched or copied. So every glyph of the font's character map is asked for by its
 * character first, once, when the font is parsed.
 */
function parse(path: string): ParsedFont {
  const font = fontkit.create(readFileSync(require.resolve(path)));
  if (!('layout' in font)) throw new Error(`${path} is a font collection, not a font`);
  for (const codePoint of font.characterSet) {
    // Not a compatibility form such as the ligature ﬁ: shaping makes that glyph from f and i and
    // must be the first to ask for it, so that its text stays "fi".
    const character = String.fromCodePoint(codePoint);
    if (character.normalize('NFKC') === character) font.glyphForCodePoint(codePoint);
  }
  return font;
}

/**
 * Parsed once per process and shared by every document: parsing and the first layout of a TTF
 * cost tens of milliseconds, most of a render. pdfkit (≥ 0.16) takes a fontkit font as it is and
 * subsets it per document; its type definitions only lag behind.
 */
function loadFonts() {
  fonts ??= {
    regular: parse('@expo-google-fonts/roboto/400Regular/Roboto_400Regular.ttf'),
    bold: parse('@expo-google-fonts/roboto/700Bold/Roboto_700Bold.ttf'),
  };
  return fonts;
}

const asFontSource = (font: ParsedFont) => font as unknown as PDFKit.Mixins.PDFFontSource;

export function lineDescription(line: InvoiceLine, texts: InvoiceTexts): string {
  switch (line.kind) {
    case 'base':
      return texts.line.base(line.product_name);
    case 'disk_space':
      return texts.line.disk_space(line.unit_size);
    case 'users':
      return texts.line.users;
    case 'plan_change':
      return texts.line.plan_change(line.product_name);
    case 'credit':
      return texts.line.credit(line.product_name);
  }
}

/** "Invoice" or "Credit note", in the document's language. */
export function documentTitle(invoice: Pick<Invoice, 'kind'>, texts: InvoiceTexts): string {
  return invoice.kind === 'credit_note' ? texts.creditNote.title : texts.title;
}

/** How it was settled: paid (how, when), refunded (a credit note), void or not paid yet. */
export function paymentNote(invoice: Invoice, language: Language): string {
  const texts = INVOICE_TEXTS[language];
  if (invoice.kind === 'credit_note')
    return texts.creditNote.refundedBy(invoice.payment_method, invoice.date);
  if (invoice.status === 'paid') return texts.paidBy(invoice.payment_method, invoice.date);
  return invoice.status === 'void' ? texts.voidNote : texts.unpaidNote;
}

const REGION_NAMES = {
  en: new Intl.DisplayNames(['en'], { type: 'region' }),
  lt: new Intl.DisplayNames(['lt'], { type: 'region' }),
} satisfies Record<Language, Intl.DisplayNames>;

/** "LT" → "Lithuania" / "Lietuva"; anything that is not a region code stays as it is. */
export function countryName(code: string, language: Language): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  try {
    return REGION_NAMES[language].of(code) ?? code;
  } catch {
    return code;
  }
}

export function partyLines(party: Invoice['seller'], language: Language): string[] {
  const texts = INVOICE_TEXTS[language];
  const address = party.address;
  return [
    address.street,
    [address.postal_code, address.city].filter(Boolean).join(' '),
    [address.state, countryName(address.country, language)].filter(Boolean).join(', '),
    party.company_code ? `${texts.companyCode}: ${party.company_code}` : '',
    party.vat_number ? `${texts.vatNumber}: ${party.vat_number}` : '',
    party.email ? `${texts.email}: ${party.email}` : '',
  ].filter((line) => line.trim() !== '');
}

/** The sums block, shared with the HTML preview so both show the same figures. */
export function totalRows(
  invoice: Invoice,
  language: Language,
): Array<{ label: string; value: string; strong?: boolean }> {
  const texts = INVOICE_TEXTS[language];
  const money = (amount: number) => invoiceMoney(amount, language);
  const rows: Array<{ label: string; value: string; strong?: boolean }> = [];
  if (invoice.period_discount !== 0) {
    rows.push({ label: texts.periodSubtotal, value: money(invoice.period_subtotal) });
    rows.push({
      label: texts.periodDiscount(invoicePercent(invoice.discount_rate, language)),
      value: money(-invoice.period_discount),
    });
  }
  rows.push({ label: texts.subtotal, value: money(invoice.subtotal) });
  if (invoice.credit_applied !== 0) {
    rows.push({ label: texts.creditApplied, value: money(-invoice.credit_applied) });
    rows.push({ label: texts.net, value: money(invoice.net) });
  }
  rows.push({
    label: texts.vat(invoicePercent(invoice.vat_rate, language)),
    value: money(invoice.vat_amount),
  });
  rows.push({ label: texts.total, value: money(invoice.total), strong: true });
  return rows;
}

/** The VAT wording the invoice must carry (reverse charge with both VAT numbers, or outside scope). */
export function legalNotes(invoice: Invoice, language: Language): string[] {
  const texts = INVOICE_TEXTS[language];
  if (invoice.reverse_charge) {
    return [
      texts.reverseCharge,
      `${texts.sellerVat}: ${invoice.seller.vat_number ?? '—'}`,
      `${texts.buyerVat}: ${invoice.buyer.vat_number ?? '—'}`,
    ];
  }
  if (invoice.outside_scope) return [texts.outsideScope];
  return [];
}

export function metaRows(invoice: Invoice, language: Language): Array<[string, string]> {
  const texts = INVOICE_TEXTS[language];
  const credit = invoice.kind === 'credit_note';
  const rows: Array<[string, string]> = [
    [credit ? texts.creditNote.number : texts.number, invoice.number],
    ...(invoice.credited_invoice
      ? [[texts.creditNote.invoice, invoice.credited_invoice.number] as [string, string]]
      : []),
    [credit ? texts.creditNote.date : texts.issueDate, invoice.date],
    [texts.supplyDate, invoice.supply_date],
    [texts.type, texts.typeLabels[invoice.type]],
    [
      texts.status,
      credit && invoice.status === 'paid' ? texts.creditNote.refunded : texts.statusLabels[invoice.status],
    ],
  ];
  if (invoice.credit_notes.length > 0)
    rows.push([texts.creditNotes, invoice.credit_notes.map((note) => note.number).join(', ')]);
  // The workspace by its name; its id only when it has none (it was removed before names were kept).
  if (invoice.service_name) rows.push([texts.service, invoice.service_name]);
  else if (invoice.service_id) rows.push([texts.serviceId, invoice.service_id]);
  if (invoice.period_start && invoice.period_end) {
    rows.push([texts.period, `${invoice.period_start} – ${invoice.period_end}`]);
  }
  return rows;
}

const MARGIN = 50;
const PAGE_WIDTH = 595.28; // A4
const CONTENT = PAGE_WIDTH - 2 * MARGIN;
const INK = '#0f172a';
const MUTED = '#475569';

export async function renderInvoicePdf(invoice: Invoice, language: Language): Promise<Buffer> {
  const texts = INVOICE_TEXTS[language];
  const { regular, bold } = loadFonts();
  const issued = new Date(invoice.issued_at);
  const doc = new PDFDocument({
    size: 'A4',
    // Our font from the start: the default (Helvetica) would be loaded and parsed for nothing.
    font: asFontSource(regular) as unknown as string,
    margin: MARGIN,
    lang: language,
    // The issue time, not now: rendering an invoice again gives the same document.
    info: {
      Title: `${documentTitle(invoice, texts)} ${invoice.number}`,
      Author: invoice.seller.name,
      Subject: documentTitle(invoice, texts),
      CreationDate: issued,
      ModDate: issued,
    },
  });
  const chunks: Buffer[] = [];
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('regular', asFontSource(regular));
  doc.registerFont('bold', asFontSource(bold));

  // Heading: seller's name left, title and number right.
  doc
    .font('bold')
    .fontSize(18)
    .fillColor(INK)
    .text(invoice.seller.name, MARGIN, MARGIN, { width: CONTENT / 2 });
  doc
    .font('bold')
    .fontSize(16)
    .text(documentTitle(invoice, texts), MARGIN + CONTENT / 2, MARGIN, {
      width: CONTENT / 2,
      align: 'right',
    });
  doc
    .font('regular')
    .fontSize(11)
    .text(invoice.number, { width: CONTENT / 2, align: 'right' });

  // Seller and buyer side by side.
  const partiesTop = 110;
  const column = (title: string, name: string, lines: string[], x: number) => {
    doc
      .font('bold')
      .fontSize(9)
      .fillColor(MUTED)
      .text(title.toUpperCase(), x, partiesTop, { width: CONTENT / 2 - 10 });
    doc
      .font('bold')
      .fontSize(11)
      .fillColor(INK)
      .text(name, { width: CONTENT / 2 - 10 });
    doc.font('regular').fontSize(9.5);
    for (const line of lines) doc.text(line, { width: CONTENT / 2 - 10 });
    return doc.y;
  };
  const sellerBottom = column(
    texts.seller,
    invoice.seller.name,
    partyLines(invoice.seller, language),
    MARGIN,
  );
  const buyerBottom = column(
    texts.buyer,
    invoice.buyer.name,
    partyLines(invoice.buyer, language),
    MARGIN + CONTENT / 2,
  );

  // Invoice facts.
  let y = Math.max(sellerBottom, buyerBottom) + 18;
  doc.font('regular').fontSize(9.5);
  for (const [label, value] of metaRows(invoice, language)) {
    doc.fillColor(MUTED).text(label, MARGIN, y, { width: 140 });
    doc.fillColor(INK).text(value, MARGIN + 140, y, { width: CONTENT - 140 });
    y = doc.y + 2;
  }

  // Lines.
  y += 14;
  const columns = [
    { key: 'description', x: MARGIN, width: 230, align: 'left' as const },
    { key: 'quantity', x: MARGIN + 235, width: 55, align: 'right' as const },
    { key: 'unit', x: MARGIN + 295, width: 85, align: 'right' as const },
    { key: 'months', x: MARGIN + 385, width: 45, align: 'right' as const },
    { key: 'amount', x: MARGIN + 435, width: CONTENT - 435, align: 'right' as const },
  ];
  const row = (cells: string[], font: 'regular' | 'bold', color: string) => {
    doc.font(font).fontSize(9.5).fillColor(color);
    let bottom = y;
    cells.forEach((cell, index) => {
      const spec = columns[index];
      if (!spec) return;
      doc.text(cell, spec.x, y, { width: spec.width, align: spec.align });
      bottom = Math.max(bottom, doc.y);
    });
    y = bottom + 4;
  };
  row([texts.description, texts.quantity, texts.unitPrice, texts.months, texts.amount], 'bold', MUTED);
  doc
    .moveTo(MARGIN, y - 2)
    .lineTo(MARGIN + CONTENT, y - 2)
    .strokeColor('#cbd5e1')
    .lineWidth(0.8)
    .stroke();
  y += 2;
  for (const line of invoice.lines) {
    row(
      [
        lineDescription(line, texts),
        String(line.quantity),
        line.kind === 'plan_change' || line.kind === 'credit' ? '' : invoiceMoney(line.unit_price, language),
        line.months > 0 ? String(line.months) : '',
        invoiceMoney(line.amount, language),
      ],
      'regular',
      INK,
    );
  }
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + CONTENT, y)
    .strokeColor('#cbd5e1')
    .lineWidth(0.8)
    .stroke();
  y += 8;

  // Sums, right-aligned.
  for (const total of totalRows(invoice, language)) {
    doc
      .font(total.strong ? 'bold' : 'regular')
      .fontSize(total.strong ? 12 : 10)
      .fillColor(INK);
    doc.text(total.label, MARGIN + 235, y, { width: 195, align: 'right' });
    doc.text(total.value, MARGIN + 435, y, { width: CONTENT - 435, align: 'right' });
    y = doc.y + 3;
  }

  // VAT wording, payment, bank account, contact.
  y += 14;
  doc.font('regular').fontSize(9.5).fillColor(INK);
  for (const note of legalNotes(invoice, language)) {
    doc.text(note, MARGIN, y, { width: CONTENT });
    y = doc.y + 2;
  }
  y += 8;
  doc.fillColor(MUTED).text(paymentNote(invoice, language), MARGIN, y, { width: CONTENT });
  if (invoice.seller_bank_account)
    doc.text(`${texts.bankAccount}: ${invoice.seller_bank_account}`, { width: CONTENT });
  if (invoice.seller.email) doc.text(texts.questions(invoice.seller.email), { width: CONTENT });

  doc.end();
  return finished;
}
