export * from './constants.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './nodes.ts';
export * from './accounts.ts';
export * from './products.ts';
export * from './quotes.ts';
export * from './orders.ts';
