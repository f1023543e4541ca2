export * from './constants.js';
export * from './errors.js';
export * from './permissions.js';
export * from './validation.js';
export * from './telephone.js';
export * from './money.js';
export * from './dictionaries.js';
export * from './compute.js';
