import { describe, expect, it } from 'vitest';
import { pdfText } from './billing.test-support.ts';
import { renderInvoicePdf } from './invoice.pdf.ts';
import { SAMPLE_INVOICE } from './invoice.sample.ts';

const buyer = (name: string) => ({ ...SAMPLE_INVOICE, buyer: { ...SAMPLE_INVOICE.buyer, name } });

describe('invoice PDF', () => {
  // A Lithuanian letter such as ž is drawn in the font as z plus a caron. Embedding it once used
  // to leave the font's shared z without its character, so every later document of the process
  // (the API renders for weeks) had a z that could not be searched or copied.
  it('keeps every letter searchable in a document rendered after another, whatever that one held', async () => {
    for (const name of ['Ona Žemaitė', 'Ąžuolas Čiurlionis']) {
      expect(pdfText(await renderInvoicePdf(buyer(name), 'lt'))).toContain(name);
    }
    for (const name of ['UAB Pavyzdys', 'Zita Aceitė', 'Office files']) {
      expect(pdfText(await renderInvoicePdf(buyer(name), 'en'))).toContain(name);
    }
  });
});
