import type { TinkerClientOptions } from '../client/tinker-client-options.js';
import type { TinkerAgentOptions } from './create-tinker-agent.js';
import { offPolicySettings } from './on-policy-sampling.js';
import { checkTinkerTokenizerFolder } from './tinker-config-paths.js';
import type { TinkerPolicyOptions } from './tinker-policy.js';
import { TINKER_EDITOR_CREDIT_KEYS } from './trainable-editor.js';
import {
  lossConfigMismatch,
  TINKER_RL_LOSSES,
  TINKER_TRAINER_OPTION_KEYS,
  type TinkerTrainerOptions,
} from './trainer-options.js';

/** A problem with one option, by path: what `skillrl check` lists before anything is built. */
export interface TinkerOptionIssue {
  path: string;
  message: string;
}

/**
 * Every key of T, each once: `true` where a config file can set it, `false` for what only code passes (a
 * function, a client). The compiler fails when T gains or loses a key, so the lists below cannot drift from
 * the option types.
 */
type EveryKey<T> = { readonly [K in keyof Required<T>]: boolean };
const settable = <T>(table: EveryKey<T>): string[] =>
  Object.entries(table)
    .filter(([, inConfig]) => inConfig)
    .map(([key]) => key);

const CLIENT = {
  baseURL: true,
  apiKeyEnv: true,
  timeoutMs: true,
  retry: true,
  futures: true,
  seed: true,
  samplingSessions: true,
  wire: true,
  fetch: false,
  signal: false,
  onRetry: false,
} as const satisfies EveryKey<TinkerClientOptions>;

const POLICY = {
  ...CLIENT,
  baseModel: true,
  tokenizer: true,
  stopTokens: true,
  acceptTokenizerMismatch: true,
  loraRank: true,
  modelPath: true,
  checkpointPrefix: true,
  checkpointTtlSeconds: true,
  tags: true,
  userMetadata: true,
  heartbeatMs: true,
  client: false,
} as const satisfies EveryKey<TinkerPolicyOptions>;

/** The options a config may give the Tinker agent (`agent: tinker`). */
export const TINKER_AGENT_CONFIG_KEYS: readonly string[] = settable<TinkerAgentOptions>({
  ...POLICY,
  maxTokens: true,
  temperature: true,
  topP: true,
  topK: true,
  systemPrompt: true,
  skillTemplate: true,
  historyWindow: true,
  actionParser: true,
  name: true,
});

/** The options a config may give the Tinker trainer (`internalize.trainer: tinker`). */
export const TINKER_TRAINER_CONFIG_KEYS: readonly string[] = [...TINKER_TRAINER_OPTION_KEYS];

/**
 * The options of an LLM editor trained on Tinker (`evolve.generator.options.trainer.options`): one flat object,
 * as `createTinkerEditorParts` splits it — the policy's, the chat model's sampling settings, the trainer's.
 */
export const TINKER_EDITOR_CONFIG_KEYS: readonly string[] = [
  ...settable<TinkerPolicyOptions>(POLICY),
  'maxTokens',
  'temperature',
  'topP',
  ...TINKER_TRAINER_OPTION_KEYS,
  ...TINKER_EDITOR_CREDIT_KEYS,
];

const INTEGER_OPTIONS = [
  'loraRank',
  'maxTokens',
  'chunkSize',
  'historyWindow',
  'checkpointTtlSeconds',
  'heartbeatMs',
];

/**
 * Every problem with a config's options for one Tinker component, in one pass: unknown keys (with the known
 * ones), missing required ones, numbers out of range, an unknown loss, a malformed variable name or sampler
 * path. The factories check the same again when they build (and throw on the first); this lets `skillrl check`
 * list them all first.
 */
function checkOptions(
  options: Record<string, unknown>,
  path: string,
  known: readonly string[],
  required: readonly string[],
): TinkerOptionIssue[] {
  const issues: TinkerOptionIssue[] = [];
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      issues.push({ path: `${path}.${key}`, message: `is not an option here (known: ${known.join(', ')})` });
    }
  }
  for (const key of required) {
    if (typeof options[key] !== 'string' || options[key] === '') {
      issues.push({
        path: `${path}.${key}`,
        message:
          key === 'tokenizer'
            ? "is required: a folder with the model's tokenizer.json and tokenizer_config.json (read relative to the config file)"
            : 'is required: the base model to train or sample on Tinker, e.g. "Qwen/Qwen3-4B-Instruct-2507"',
      });
    }
  }
  const integer = (key: string, min: number) => {
    const v = options[key];
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= min)) {
      issues.push({
        path: `${path}.${key}`,
        message: `expected an integer >= ${min}, got ${JSON.stringify(v)}`,
      });
    }
  };
  const number = (key: string, ok: (v: number) => boolean, want: string) => {
    const v = options[key];
    if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && ok(v))) {
      issues.push({ path: `${path}.${key}`, message: `expected ${want}, got ${JSON.stringify(v)}` });
    }
  };
  for (const key of INTEGER_OPTIONS) if (known.includes(key)) integer(key, 1);
  if (known.includes('seed')) integer('seed', 0);
  number('temperature', (v) => v >= 0, 'a number >= 0');
  number('topP', (v) => v > 0 && v <= 1, 'a number in (0, 1]');
  number('learningRate', (v) => v > 0, 'a number > 0');
  number('klPenaltyCoef', (v) => v >= 0, 'a number >= 0 (0: no KL penalty)');
  number('invalidReplyAdvantage', (v) => v <= 0, 'a number <= 0');
  number('repairPenalty', (v) => v >= 0, 'a number >= 0');
  if (options.normalizePerTrajectory !== undefined && typeof options.normalizePerTrajectory !== 'boolean') {
    issues.push({ path: `${path}.normalizePerTrajectory`, message: 'expected true or false' });
  }
  number('timeoutMs', (v) => v > 0, 'a number of milliseconds > 0');
  if (options.loss !== undefined && !(TINKER_RL_LOSSES as readonly unknown[]).includes(options.loss)) {
    issues.push({
      path: `${path}.loss`,
      message: `expected one of ${TINKER_RL_LOSSES.join(', ')} (Tinker's policy-gradient losses), got ${JSON.stringify(options.loss)}`,
    });
  }
  const misplaced = lossConfigMismatch(options.loss, options);
  if (misplaced) issues.push({ path: `${path}.${misplaced.key}`, message: misplaced.message });
  if (
    options.apiKeyEnv !== undefined &&
    !(typeof options.apiKeyEnv === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(options.apiKeyEnv))
  ) {
    issues.push({
      path: `${path}.apiKeyEnv`,
      message: "expected an environment variable's name (default TINKER_API_KEY)",
    });
  }
  if (
    options.modelPath !== undefined &&
    !(typeof options.modelPath === 'string' && options.modelPath.startsWith('tinker://'))
  ) {
    issues.push({ path: `${path}.modelPath`, message: 'expected a tinker:// sampler path' });
  }
  return issues;
}

/** Off-policy sampling settings among options, less those already reported (out of range, unknown). */
function onPolicyIssues(
  options: Record<string, unknown>,
  path: string,
  reported: readonly TinkerOptionIssue[],
): TinkerOptionIssue[] {
  const pick = (key: string) => (typeof options[key] === 'number' ? (options[key] as number) : undefined);
  const sampling = { temperature: pick('temperature'), topP: pick('topP'), topK: pick('topK') };
  const seen = new Set(reported.map((i) => i.path));
  return offPolicySettings(sampling, path).filter((i) => !seen.has(i.path));
}

/**
 * A config's `agent: tinker` options (`baseModel` and `tokenizer` required). With `trained: true` (the run's
 * trainer trains this agent) a temperature other than 1, `topP` and `topK` are problems too: the samples are
 * the training data, and the loss's importance ratio assumes they come from the policy's own distribution.
 * With `configPath` (the config file), the tokenizer folder is checked first (`checkTinkerTokenizerFolder`).
 */
export function checkTinkerAgentOptions(
  options: Record<string, unknown>,
  path = 'options',
  context: { trained?: boolean } = {},
  configPath?: string,
): TinkerOptionIssue[] {
  const issues = [
    ...(configPath !== undefined ? checkTinkerTokenizerFolder(options, configPath, path) : []),
    ...checkOptions(options, path, TINKER_AGENT_CONFIG_KEYS, ['baseModel', 'tokenizer']),
  ];
  if (context.trained) issues.push(...onPolicyIssues(options, path, issues));
  return issues;
}

/** A config's `trainer: tinker` options (`TinkerTrainerOptions`; all optional). */
export function checkTinkerTrainerOptions(
  options: Record<string, unknown> | TinkerTrainerOptions,
  path = 'options',
): TinkerOptionIssue[] {
  return checkOptions(options as Record<string, unknown>, path, TINKER_TRAINER_CONFIG_KEYS, []);
}

/**
 * A config's Tinker-trained LLM editor options (`baseModel` and `tokenizer` required). The editor is always
 * trained, so a temperature other than 1 and `topP` are problems (on-policy samples). With `configPath`, the
 * tokenizer folder is checked first, as the agent's.
 */
export function checkTinkerEditorOptions(
  options: Record<string, unknown>,
  path = 'options',
  _use?: unknown,
  configPath?: string,
): TinkerOptionIssue[] {
  const issues = [
    ...(configPath !== undefined ? checkTinkerTokenizerFolder(options, configPath, path) : []),
    ...checkOptions(options, path, TINKER_EDITOR_CONFIG_KEYS, ['baseModel', 'tokenizer']),
  ];
  issues.push(...onPolicyIssues(options, path, issues));
  return issues;
}
