// The words of an invoice (PDF, HTML preview, mail), in both languages. The legal wording of a
// reverse charge and of a supply outside the scope of EU VAT is fixed here, once.
import type { InvoiceKind, InvoiceStatus, InvoiceType, Language } from '@debesis/contract';
import { assertMinor } from '@debesis/pricing';

export interface InvoiceTexts {
  title: string;
  number: string;
  creditNote: {
    title: string;
    number: string;
    date: string;
    /** The invoice it credits. */
    invoice: string;
    /** A credit note's status `paid`: its money went back. */
    refunded: string;
    refundedBy: (method: string, date: string) => string;
  };
  /** An invoice's credit notes. */
  creditNotes: string;
  kindLabels: Record<InvoiceKind, string>;
  voidNote: string;
  unpaidNote: string;
  issueDate: string;
  supplyDate: string;
  type: string;
  status: string;
  serviceId: string;
  service: string;
  orderId: string;
  period: string;
  seller: string;
  buyer: string;
  companyCode: string;
  vatNumber: string;
  email: string;
  bankAccount: string;
  description: string;
  quantity: string;
  unitPrice: string;
  months: string;
  amount: string;
  periodSubtotal: string;
  periodDiscount: (rate: string) => string;
  subtotal: string;
  creditApplied: string;
  net: string;
  vat: (rate: string) => string;
  total: string;
  paidBy: (method: string, date: string) => string;
  typeLabels: Record<InvoiceType, string>;
  statusLabels: Record<InvoiceStatus, string>;
  line: {
    base: (product: string) => string;
    disk_space: (gb: number) => string;
    users: string;
    plan_change: (product: string) => string;
    credit: (product: string) => string;
  };
  reverseCharge: string;
  sellerVat: string;
  buyerVat: string;
  outsideScope: string;
  questions: (email: string) => string;
  perMonth: string;
}

export const INVOICE_TEXTS: Record<Language, InvoiceTexts> = {
  en: {
    title: 'Invoice',
    number: 'Invoice number',
    creditNote: {
      title: 'Credit note',
      number: 'Credit note number',
      date: 'Credit note date',
      invoice: 'Credits invoice',
      refunded: 'Refunded',
      refundedBy: (method, date) =>
        method === 'credit' ? `Credited to the account on ${date}` : `Refunded to the card on ${date}`,
    },
    creditNotes: 'Credit notes',
    kindLabels: { invoice: 'Invoice', credit_note: 'Credit note' },
    voidNote: 'This invoice is void: nothing is due.',
    unpaidNote: 'Not paid yet.',
    issueDate: 'Invoice date',
    supplyDate: 'Date of supply',
    type: 'Type',
    status: 'Status',
    serviceId: 'Service ID',
    service: 'Service',
    orderId: 'Order',
    period: 'Service period',
    seller: 'Seller',
    buyer: 'Buyer',
    companyCode: 'Company code',
    vatNumber: 'VAT number',
    email: 'Email',
    bankAccount: 'Bank account',
    description: 'Description',
    quantity: 'Quantity',
    unitPrice: 'Unit price / month',
    months: 'Months',
    amount: 'Amount',
    periodSubtotal: 'Period subtotal',
    periodDiscount: (rate) => `Period discount (${rate})`,
    subtotal: 'Subtotal',
    creditApplied: 'Account credit applied',
    net: 'Taxable amount',
    vat: (rate) => `VAT ${rate}`,
    total: 'Total',
    paidBy: (method, date) =>
      method === 'credit' ? `Paid with account credit on ${date}` : `Paid by card on ${date}`,
    typeLabels: { PURCHASE: 'New Service', RENEWAL: 'Service Renewal', PLAN_CHANGE: 'Plan Change' },
    statusLabels: { paid: 'Paid', unpaid: 'Unpaid', void: 'Void', draft: 'Draft' },
    line: {
      base: (product) => `${product} plan`,
      disk_space: (gb) => `Extra storage (${gb} GB units)`,
      users: 'Extra users',
      plan_change: (product) => `Plan change to ${product}, prorated for the rest of the paid period`,
      credit: (product) => `Credit: ${product} plan`,
    },
    reverseCharge:
      'Reverse charge – VAT to be accounted for by the recipient (Article 196 of Council Directive 2006/112/EC)',
    sellerVat: "Seller's VAT number",
    buyerVat: "Buyer's VAT number",
    outsideScope:
      'Outside the scope of EU VAT – the place of supply is outside the European Union (Article 44 of Council Directive 2006/112/EC)',
    questions: (email) => `Questions about this invoice: ${email}`,
    perMonth: 'per month',
  },
  lt: {
    title: 'PVM sąskaita faktūra',
    number: 'Sąskaitos numeris',
    creditNote: {
      title: 'Kreditinė PVM sąskaita faktūra',
      number: 'Kreditinės sąskaitos numeris',
      date: 'Kreditinės sąskaitos data',
      invoice: 'Koreguojama sąskaita',
      refunded: 'Grąžinta',
      refundedBy: (method, date) =>
        method === 'credit' ? `Grąžinta į paskyros kreditą ${date}` : `Grąžinta į kortelę ${date}`,
    },
    creditNotes: 'Kreditinės sąskaitos',
    kindLabels: { invoice: 'Sąskaita', credit_note: 'Kreditinė sąskaita' },
    voidNote: 'Ši sąskaita anuliuota: mokėti nereikia.',
    unpaidNote: 'Dar neapmokėta.',
    issueDate: 'Išrašymo data',
    supplyDate: 'Paslaugų suteikimo data',
    type: 'Tipas',
    status: 'Būsena',
    serviceId: 'Paslaugos ID',
    service: 'Paslauga',
    orderId: 'Užsakymas',
    period: 'Paslaugos laikotarpis',
    seller: 'Pardavėjas',
    buyer: 'Pirkėjas',
    companyCode: 'Įmonės kodas',
    vatNumber: 'PVM mokėtojo kodas',
    email: 'El. paštas',
    bankAccount: 'Banko sąskaita',
    description: 'Aprašymas',
    quantity: 'Kiekis',
    unitPrice: 'Vieneto kaina / mėn.',
    months: 'Mėnesiai',
    amount: 'Suma',
    periodSubtotal: 'Laikotarpio suma',
    periodDiscount: (rate) => `Laikotarpio nuolaida (${rate})`,
    subtotal: 'Tarpinė suma',
    creditApplied: 'Panaudotas paskyros kreditas',
    net: 'Apmokestinamoji vertė',
    vat: (rate) => `PVM ${rate}`,
    total: 'Iš viso',
    paidBy: (method, date) =>
      method === 'credit' ? `Apmokėta paskyros kreditu ${date}` : `Apmokėta kortele ${date}`,
    typeLabels: {
      PURCHASE: 'Nauja paslauga',
      RENEWAL: 'Paslaugos pratęsimas',
      PLAN_CHANGE: 'Plano keitimas',
    },
    statusLabels: { paid: 'Apmokėta', unpaid: 'Neapmokėta', void: 'Anuliuota', draft: 'Juodraštis' },
    line: {
      base: (product) => `Planas ${product}`,
      disk_space: (gb) => `Papildoma vieta (vienetas ${gb} GB)`,
      users: 'Papildomi naudotojai',
      plan_change: (product) => `Plano keitimas į ${product}, proporcingai likusiam apmokėtam laikotarpiui`,
      credit: (product) => `Kreditas: planas ${product}`,
    },
    reverseCharge:
      'Atvirkštinis apmokestinimas – PVM apskaito ir sumoka paslaugų gavėjas (Tarybos direktyvos 2006/112/EB 196 straipsnis)',
    sellerVat: 'Pardavėjo PVM mokėtojo kodas',
    buyerVat: 'Pirkėjo PVM mokėtojo kodas',
    outsideScope:
      'ES PVM netaikomas – paslaugų teikimo vieta yra už Europos Sąjungos ribų (Tarybos direktyvos 2006/112/EB 44 straipsnis)',
    questions: (email) => `Klausimai dėl šios sąskaitos: ${email}`,
    perMonth: 'per mėnesį',
  },
};

const MONEY_FORMATS = {
  en: new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }),
  lt: new Intl.NumberFormat('lt-LT', {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }),
} satisfies Record<Language, Intl.NumberFormat>;

const PERCENT_FORMATS = {
  en: new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 2 }),
  lt: new Intl.NumberFormat('lt-LT', { style: 'percent', maximumFractionDigits: 2 }),
} satisfies Record<Language, Intl.NumberFormat>;

/**
 * Amounts as each language writes them, always with two decimals ("€14.99", "14,99 €"): the
 * options of `formatMoney` (@debesis/pricing), with the formatters made once (building one costs
 * more than a whole line of the PDF).
 */
export function invoiceMoney(amountMinor: number, language: Language): string {
  assertMinor(amountMinor, 'amountMinor');
  return MONEY_FORMATS[language].format(amountMinor / 100);
}

/** 21 → "21%" (en) or "21 %" (lt). */
export function invoicePercent(rate: number, language: Language): string {
  return PERCENT_FORMATS[language].format(rate / 100);
}
