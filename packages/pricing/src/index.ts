// @debesis/pricing: pure money code shared by the web price preview and the API's charge.
// No I/O, no clock, integer minor units, one rounding rule (see money.ts).
//
// The VAT-number checker is its own entry point, `@debesis/pricing/vat-number`: it carries the
// per-country rules of `stdnum` (about 200 kB minified, which bundlers do not tree-shake), so the
// price preview does not load them; only the pages and routes that check a number import it.
export * from './money.ts';
export * from './product.ts';
export * from './vat.ts';
export * from './place-of-supply.ts';
export * from './breakdown.ts';
export * from './proration.ts';
export * from './credit.ts';
export * from './catalogue.ts';
export * from './calendar.ts';
