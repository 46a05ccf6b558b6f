/**
 * @skillrl/task-qa — question answering tasks: offline generated sets with exact answers (the default
 * adapter), loaders for GAIA, WebWalkerQA and any JSONL, GAIA's official scorer and WebWalkerQA's judge, and
 * the benchmarks' tools (attachment reading, web search and page fetches, WebWalkerQA's visit_page).
 */
import { createQaAdapter } from './adapter/create-qa-adapter.js';

// The default adapter over generated families, its options, and the one-step QA environment.
export {
  createQaAdapter,
  QA_SPLITS,
  type QaAdapterOptions,
  type QaSplit,
  qaSkillFiles,
} from './adapter/create-qa-adapter.js';
export { createQaEnvironment, type QaEnvironmentOptions } from './adapter/qa-environment.js';
// Each adapter's option vocabulary and check (every problem by path; the factories throw on the same).
export { checkQaAdapterOptions, QA_ADAPTER_OPTIONS } from './adapter/check-qa-adapter-options.js';
export { checkGaiaAdapterOptions, GAIA_ADAPTER_OPTIONS } from './gaia/check-gaia-adapter-options.js';
export { checkJsonlAdapterOptions, JSONL_ADAPTER_OPTIONS } from './jsonl/check-jsonl-adapter-options.js';
export {
  checkWebWalkerAdapterOptions,
  WEBWALKER_ADAPTER_OPTIONS,
} from './webwalker/check-webwalker-adapter-options.js';

export {
  createGaiaAdapter,
  GAIA_FAMILIES,
  type GaiaAdapterOptions,
  type GaiaToolsOptions,
} from './gaia/create-gaia-adapter.js';
export { extractFinalAnswer } from './gaia/extract-final-answer.js';
export { GAIA_INSTRUCTIONS } from './gaia/gaia-prompt.js';
// GAIA: the official scorer (exact port), Python float syntax, the FINAL ANSWER template, verifier, loader.
export {
  type GaiaRule,
  type GaiaScoreDetails,
  gaiaScore,
  gaiaScoreDetails,
  normalizeNumberStr,
  normalizeStr,
  splitString,
} from './gaia/gaia-score.js';
export { createGaiaVerifier, type GaiaVerifierOptions } from './gaia/gaia-verifier.js';
export { isPythonFloat, parsePythonFloat } from './gaia/parse-python-float.js';
export {
  type Expression,
  ExpressionSyntaxError,
  evaluateExpression,
  numbersIn,
  parseExpression,
} from './generated/arithmetic-expression.js';
// Offline families: generators, verifiers and the small exact-arithmetic parser they use.
export { arithmeticFamily } from './generated/arithmetic-family.js';
export { checkExpressionAnswer, type ExpressionCheck } from './generated/check-expression-answer.js';
export { countdownFamily, game24Family } from './generated/countdown-family.js';
export { GENERATED_FAMILIES } from './generated/families.js';
export type { GeneratedFamily, GeneratedInstance, Profile } from './generated/generated-family.js';
export {
  consistentAssignments,
  knightsFamily,
  parseKnightsAnswer,
  type Statement,
} from './generated/knights-family.js';
export { formatRational, type Rational } from './generated/rational.js';
export { solveCountdown } from './generated/solve-countdown.js';
export {
  createFileAdapter,
  type FileAdapterOptions,
  type FileTaskAdapter,
  type RowContext,
  type RowMapper,
  selectTasks,
} from './jsonl/create-file-adapter.js';
// Any JSONL of questions and answers, and the file-adapter machinery under the loaders.
export {
  createJsonlAdapter,
  type JsonlAdapterOptions,
  type JsonlFields,
} from './jsonl/create-jsonl-adapter.js';
export { describeField, type FieldSpec, readField } from './jsonl/field-path.js';
export { formatProblem, type JsonlProblem } from './jsonl/jsonl-problem.js';
export { type JsonlRead, type JsonlRow, readJsonl } from './jsonl/read-jsonl.js';
// The benchmarks' tools: GAIA's read_file, web_search/fetch_page over pluggable backends, visit_page.
export {
  type AttachmentFormat,
  type AttachmentKind,
  attachmentFormat,
} from './tools/files/attachment-format.js';
export { createReadFileTool, type ReadFileToolOptions } from './tools/files/create-read-file-tool.js';
export { type AttachmentText, readAttachment } from './tools/files/read-attachment.js';
export { DEFAULT_TOOL_CALLS } from './tools/tool-calls.js';
export { DEFAULT_TOOL_MAX_CHARS } from './tools/tool-text.js';
export { createVisitPageTool, type VisitPageToolOptions } from './tools/web/create-visit-page-tool.js';
export { createWebBackend, type WebBackendConfig } from './tools/web/create-web-backend.js';
export { createWebTools, type WebToolsOptions } from './tools/web/create-web-tools.js';
export { fetchLivePage, type LiveFetchOptions } from './tools/web/fetch-live-page.js';
export { formatPage, formatSearchHits } from './tools/web/format-web-results.js';
export { htmlToPage } from './tools/web/html-to-page.js';
export {
  createHttpSearchBackend,
  type HttpSearchBackendOptions,
  type SearchApi,
} from './tools/web/http-search-backend.js';
export { normalizeUrl } from './tools/web/normalize-url.js';
export {
  createPageCache,
  loadPageCache,
  type PageCache,
  type PageRecord,
  pageFromRecord,
} from './tools/web/page-cache.js';
export { createPageCacheBackend, type PageCacheBackendOptions } from './tools/web/page-cache-backend.js';
export type { PageLink, SearchHit, WebBackend, WebPage, WebSearchOptions } from './tools/web/web-page.js';
export {
  createWebWalkerAdapter,
  WEBWALKER_FAMILIES,
  WEBWALKER_UNKNOWN_FAMILY,
  type WebWalkerAdapterOptions,
} from './webwalker/create-webwalker-adapter.js';
// WebWalkerQA: the official judge prompt and GRADE parser, the verifier (judge or token-F1), loader.
export {
  buildWebWalkerJudgePrompt,
  WEBWALKER_JUDGE_TEMPLATE,
  type WebWalkerJudgeInput,
} from './webwalker/judge-prompt.js';
export { parseWebWalkerGrade, type WebWalkerGrade } from './webwalker/parse-grade.js';
export {
  createWebWalkerVerifier,
  type JudgeFunction,
  type WebWalkerJudgeModel,
  type WebWalkerVerifierOptions,
} from './webwalker/webwalker-verifier.js';

/** The default export: the offline generated-QA adapter with default options. */
const qaAdapter = createQaAdapter();
export default qaAdapter;
