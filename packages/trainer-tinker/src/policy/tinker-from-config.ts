import { type Agent, MissingFieldError } from '@skillrl/core';
import { createTinkerAgent, type TinkerAgent, type TinkerAgentOptions } from './create-tinker-agent.js';
import { createTinkerTrainer, type TinkerTrainer } from './create-tinker-trainer.js';
import { resolveTinkerPaths } from './tinker-config-paths.js';
import { createTinkerEditorParts, type TinkerEditorOptions } from './trainable-editor.js';
import type { TinkerTrainerOptions } from './trainer-options.js';

/** What a config-level factory is told about the run (the orchestrator's component context). */
export interface TinkerConfigContext {
  /** The component's seed, derived from the run's. */
  seed: number;
  /** The config file: the `tokenizer` folder is read from its folder. */
  configPath: string;
  /** Where the options sit in the config, for messages. Default `agent.options`. */
  path?: string;
}

/**
 * The Tinker agent as a config names it (`agent: tinker`): `baseModel` and `tokenizer` required, the
 * tokenizer folder read from the config's folder. The key is read by the client from the variable `apiKeyEnv`
 * names (default TINKER_API_KEY), never from the config.
 */
export function createTinkerAgentFromConfig(
  options: Readonly<Record<string, unknown>>,
  { seed, configPath, path = 'agent.options' }: TinkerConfigContext,
): TinkerAgent {
  if (typeof options.baseModel !== 'string') throw new MissingFieldError(path, 'baseModel');
  if (typeof options.tokenizer !== 'string') throw new MissingFieldError(path, 'tokenizer');
  return createTinkerAgent({ seed, ...resolveTinkerPaths(options, configPath) } as TinkerAgentOptions);
}

/** The Tinker trainer as a config names it (`internalize.trainer: tinker`): it trains the run's agent. */
export function createTinkerTrainerFromConfig(
  options: Readonly<Record<string, unknown>>,
  { agent }: { agent?: Agent },
): TinkerTrainer {
  if (!agent) throw new MissingFieldError('tinker trainer', 'agent');
  return createTinkerTrainer(agent, options as TinkerTrainerOptions);
}

/**
 * What an LLM editor trained on Tinker is built from, as a config gives it (`evolve.generator.options.trainer:
 * { name: tinker, options }`): `createTinkerEditorParts` of the trainer's options, the tokenizer folder read
 * from the config's folder. The editor itself is skill-generator's (which this package may not import): it
 * proposes through `model` and is made trainable by `train(editor)`.
 */
export function createTinkerEditorTraining({
  seed,
  options,
  configPath,
}: {
  seed: number;
  options: Readonly<Record<string, unknown>>;
  configPath: string;
}): ReturnType<typeof createTinkerEditorParts> {
  return createTinkerEditorParts({ seed, ...resolveTinkerPaths(options, configPath) } as TinkerEditorOptions);
}
