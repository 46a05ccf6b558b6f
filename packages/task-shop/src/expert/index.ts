export * from './expert-actions.js';
export * from './random-action.js';
