export * from './get-attribute-reward.js';
export * from './get-option-reward.js';
export * from './get-reward.js';
export * from './get-type-reward.js';
export * from './normalize-color.js';
export * from './title-nouns.js';
export * from './token-set-ratio.js';
