export { answerOf } from './answer-of.js';
export { checkThreshold } from './check-threshold.js';
export { makeVerdict } from './make-verdict.js';
export { quote } from './quote.js';
export { referencesOf } from './references-of.js';
export type { ReferenceOptions } from './reference-options.js';
