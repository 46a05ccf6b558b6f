export { answerOf } from './answer-of.js';
export type { AsyncVerifier } from './async-verifier.js';
export { checkThreshold } from './check-threshold.js';
export { makeVerdict } from './make-verdict.js';
export { quote } from './quote.js';
export type { ReferenceOptions } from './reference-options.js';
export { referencesOf } from './references-of.js';
