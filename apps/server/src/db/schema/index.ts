export * from './accounts.js';
export * from './meta.js';
export * from './billing.js';
export * from './compute.js';
export * from './personal.js';
export * from './elastic.js';
export * from './storage.js';
export * from './models.js';
