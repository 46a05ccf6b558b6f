/**
 * @skillrl/verifiers — reward checks. Each is `{ name, verify(task, trajectory) → Promise<Verdict> }` with a
 * score in [0, 1], `passed` from a threshold, and a reason.
 */

// Model-written JavaScript run against tests in a sandboxed child process.
export type { CodeTest, CodeTestInput } from './code/code-test.js';
export { type CodeTestsOptions, codeTests } from './code/code-tests.js';
export { extractCode } from './code/extract-code.js';
export type { SandboxProtections } from './code/run-sandboxed.js';
// Combining verifiers: all / any / weighted.
export { type CompositeOptions, composite, type WeightedVerifier } from './composite/composite.js';
// The environment's own reward as a verifier.
export { type EnvRewardOptions, envReward } from './env/env-reward.js';
// An LLM grading against a rubric over any OpenAI-compatible endpoint (repeat-k, agreement, score parsing).
export { DEFAULT_JUDGE_TEMPLATE } from './judge/default-template.js';
export type {
  JudgeChatClient,
  JudgeChatCompletion,
  JudgeChatMessage,
  JudgeChatRequest,
} from './judge/judge-chat-client.js';
export { JudgeError } from './judge/judge-error.js';
export { type LlmJudgeOptions, llmJudge } from './judge/llm-judge.js';
export { DEFAULT_GRADES, gradeParser, type JudgementParser, scoreParser } from './judge/parse-judgement.js';
// Answer matching: exact, normalised (SQuAD), numeric with tolerance, regex, substrings, token F1.
export { type ContainsOptions, contains } from './match/contains.js';
export { type ExactMatchOptions, exactMatch } from './match/exact-match.js';
export { normalizeAnswer } from './match/normalize-answer.js';
export { type NormalizedMatchOptions, normalizedMatch } from './match/normalized-match.js';
export { type NumericOptions, numeric } from './match/numeric.js';
export { type ParsedNumber, parseNumbers } from './match/parse-numbers.js';
export { type RegexOptions, regex } from './match/regex.js';
export { type TokenF1, type TokenF1Options, tokenF1, tokenF1Score } from './match/token-f1.js';
// User checks in plain JavaScript, run in this process.
export {
  type PredicateFn,
  type PredicateOptions,
  type PredicateResult,
  predicate,
} from './predicate/predicate.js';
// Structured answers: JSON read from the answer and checked against a JSON Schema with ajv.
export type { SchemaIssue } from './schema/describe-ajv-error.js';
export { extractJson, type JsonExtraction } from './schema/extract-json.js';
export { type JsonSchemaOptions, jsonSchema } from './schema/json-schema.js';
// Shared by every verifier: what text is judged, how a reason quotes it, and the always-async verifier type.
export { answerOf } from './shared/answer-of.js';
export { quote } from './shared/quote.js';
export type { AsyncVerifier } from './shared/async-verifier.js';
export type { ReferenceOptions } from './shared/reference-options.js';
