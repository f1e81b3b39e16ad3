// Time to render one invoice PDF (pdfkit, Roboto subset embedded): the median of 50 renders of a
// typical invoice, after five warm-up renders (the first parses the fonts). In process: no server.
import { renderInvoicePdf } from '../../apps/api/src/modules/billing/invoice.pdf.ts';
import { SAMPLE_INVOICE as SAMPLE } from '../../apps/api/src/modules/billing/invoice.sample.ts';

const RUNS = 50;

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
