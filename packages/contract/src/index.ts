export * from './constants.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './nodes.ts';
export * from './accounts.ts';
