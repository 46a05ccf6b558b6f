/**
 * @skillrl/verifiers — reward checks. Each is `{ name, verify(task, trajectory) → Promise<Verdict> }` with a
 * score in [0, 1], `passed` from a threshold, and a reason.
 */

// Answer matching: exact, normalised (SQuAD), numeric with tolerance, regex, substrings, token F1.
export { type ContainsOptions, contains } from './match/contains.js';
export { type ExactMatchOptions, exactMatch } from './match/exact-match.js';
export { normalizeAnswer } from './match/normalize-answer.js';
export { type NormalizedMatchOptions, normalizedMatch } from './match/normalized-match.js';
export { type NumericOptions, numeric } from './match/numeric.js';
export { type ParsedNumber, parseNumbers } from './match/parse-numbers.js';
export { type RegexOptions, regex } from './match/regex.js';
export { type TokenF1, type TokenF1Options, tokenF1, tokenF1Score } from './match/token-f1.js';

// Structured answers: JSON checked against a JSON Schema with ajv.
export { type JsonExtraction, extractJson } from './schema/extract-json.js';
export { type JsonSchemaOptions, jsonSchema } from './schema/json-schema.js';
export type { SchemaIssue } from './schema/describe-ajv-error.js';

// User checks in plain JavaScript, run in this process.
export { type PredicateFn, type PredicateOptions, type PredicateResult, predicate } from './predicate/predicate.js';

// Model-written code run against tests in a sandboxed child process.
export type { CodeTest, CodeTestInput } from './code/code-test.js';
export { type CodeTestsOptions, codeTests } from './code/code-tests.js';
export { extractCode } from './code/extract-code.js';
export type { SandboxProtections } from './code/run-sandboxed.js';

// Combining verifiers, and the environment's own reward as a verifier.
export { type CompositeOptions, composite, type WeightedVerifier } from './composite/composite.js';
export { type EnvRewardOptions, envReward } from './env/env-reward.js';

// Shared by every verifier: what text is judged.
export { answerOf } from './shared/answer-of.js';
export type { ReferenceOptions } from './shared/reference-options.js';
