export * from './accounts.js';
export * from './meta.js';
