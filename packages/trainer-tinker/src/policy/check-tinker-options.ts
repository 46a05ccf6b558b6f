import type { TinkerClientOptions } from '../client/create-tinker-client.js';
import type { TinkerAgentOptions } from './create-tinker-agent.js';
import type { TinkerPolicyOptions } from './tinker-policy.js';
import {
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
  fetch: false,
  signal: false,
  onRetry: false,
} as const satisfies EveryKey<TinkerClientOptions>;

const POLICY = {
  ...CLIENT,
  baseModel: true,
  tokenizer: true,
  stopTokens: true,
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
  number('timeoutMs', (v) => v > 0, 'a number of milliseconds > 0');
  if (options.loss !== undefined && !(TINKER_RL_LOSSES as readonly unknown[]).includes(options.loss)) {
    issues.push({
      path: `${path}.loss`,
      message: `expected one of ${TINKER_RL_LOSSES.join(', ')} (Tinker's policy-gradient losses), got ${JSON.stringify(options.loss)}`,
    });
  }
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

/** A config's `agent: tinker` options (`baseModel` and `tokenizer` required). */
export function checkTinkerAgentOptions(
  options: Record<string, unknown>,
  path = 'options',
): TinkerOptionIssue[] {
  return checkOptions(options, path, TINKER_AGENT_CONFIG_KEYS, ['baseModel', 'tokenizer']);
}

/** A config's `trainer: tinker` options (`TinkerTrainerOptions`; all optional). */
export function checkTinkerTrainerOptions(
  options: Record<string, unknown> | TinkerTrainerOptions,
  path = 'options',
): TinkerOptionIssue[] {
  return checkOptions(options as Record<string, unknown>, path, TINKER_TRAINER_CONFIG_KEYS, []);
}

/** A config's Tinker-trained LLM editor options (`baseModel` and `tokenizer` required). */
export function checkTinkerEditorOptions(
  options: Record<string, unknown>,
  path = 'options',
): TinkerOptionIssue[] {
  return checkOptions(options, path, TINKER_EDITOR_CONFIG_KEYS, ['baseModel', 'tokenizer']);
}
