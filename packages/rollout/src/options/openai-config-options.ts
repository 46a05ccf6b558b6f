import { InvalidArgumentError, registerSecret } from '@skillrl/core';
import { checkOpenAIAgentOptions, checkOpenAIChatModelOptions } from './check-option-names.js';

/**
 * What a config adds to an OpenAI-compatible model's options: `apiKeyEnv`, the name of the environment
 * variable that holds the key (a config file never holds a key itself).
 */
export const OPENAI_CONFIG_KEYS: readonly string[] = ['apiKeyEnv'];

/** A problem with a config's options, by path. */
export interface ConfigOptionIssue {
  path: string;
  message: string;
}

/**
 * The value of the environment variable `variable`, registered as a secret (redacted from every error, event
 * and record); unset or empty, an `InvalidArgumentError` naming `field`, the config field that named it.
 */
export function secretFromEnv(variable: string, field: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = env[variable];
  if (key === undefined || key === '') {
    throw new InvalidArgumentError(field, `the environment variable ${variable} is not set`);
  }
  registerSecret(key);
  return key;
}

/**
 * A model's options as a config gives them, with `apiKeyEnv` read into `apiKey` (`secretFromEnv`); `path` is
 * where the options sit (`agent.options`), for the error's field.
 */
export function withApiKeyFromEnv(
  options: Readonly<Record<string, unknown>>,
  path: string,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, unknown> {
  const { apiKeyEnv, ...rest } = options;
  if (apiKeyEnv === undefined) return rest;
  if (typeof apiKeyEnv !== 'string') {
    throw new InvalidArgumentError(`${path}.apiKeyEnv`, 'expected a variable name');
  }
  return { ...rest, apiKey: secretFromEnv(apiKeyEnv, `${path}.apiKeyEnv`, env) };
}

const byPath = ({ path, message }: ConfigOptionIssue): ConfigOptionIssue => ({ path, message });

/**
 * The openai agent's options as a config gives them (`agent.options`, `apiKeyEnv` included): every unknown
 * name by its path, with the fix (`temprature`: did you mean temperature?).
 */
export function checkOpenAIAgentConfigOptions(
  options: unknown,
  path = '$.agent.options',
): ConfigOptionIssue[] {
  return checkOpenAIAgentOptions(options, path, OPENAI_CONFIG_KEYS).map(byPath);
}

/** An OpenAI-compatible chat model's options as a config gives them (the LLM editor's `model`), the same way. */
export function checkOpenAIChatModelConfigOptions(
  options: unknown,
  path = '$.evolve.generator.options.model',
): ConfigOptionIssue[] {
  return checkOpenAIChatModelOptions(options, path, OPENAI_CONFIG_KEYS).map(byPath);
}
