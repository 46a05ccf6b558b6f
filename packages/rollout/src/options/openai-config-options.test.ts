import { InvalidArgumentError, redactSecrets } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import {
  checkOpenAIAgentConfigOptions,
  checkOpenAIChatModelConfigOptions,
  secretFromEnv,
  withApiKeyFromEnv,
} from './openai-config-options.js';

describe('withApiKeyFromEnv', () => {
  it('reads the variable apiKeyEnv names into apiKey and registers the key as a secret', () => {
    const key = 'sk-rollout-config-test-7f3a9c';
    const env = { ROLLOUT_CONFIG_KEY: key };
    expect(withApiKeyFromEnv({ model: 'm', apiKeyEnv: 'ROLLOUT_CONFIG_KEY' }, 'agent.options', env)).toEqual({
      model: 'm',
      apiKey: key,
    });
    expect(redactSecrets(`sent ${key}`)).not.toContain(key);
  });

  it('leaves options without apiKeyEnv as they are', () => {
    expect(withApiKeyFromEnv({ model: 'm' }, 'agent.options', {})).toEqual({ model: 'm' });
  });

  it('an unset or empty variable is a typed error naming the field and the variable', () => {
    for (const env of [{}, { ROLLOUT_UNSET_KEY: '' }]) {
      let thrown: unknown;
      try {
        withApiKeyFromEnv({ apiKeyEnv: 'ROLLOUT_UNSET_KEY' }, 'evolve.generator.options.model', env);
      } catch (error) {
        thrown = error;
      }
      expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
      expect((thrown as InvalidArgumentError).argument).toBe('evolve.generator.options.model.apiKeyEnv');
      expect((thrown as Error).message).toBe(
        'Invalid evolve.generator.options.model.apiKeyEnv: the environment variable ROLLOUT_UNSET_KEY is not set',
      );
    }
  });

  it('apiKeyEnv that is not a name is refused', () => {
    expect(() => withApiKeyFromEnv({ apiKeyEnv: 3 }, 'agent.options', {})).toThrow(
      'Invalid agent.options.apiKeyEnv: expected a variable name',
    );
  });

  it('secretFromEnv names the field it was given', () => {
    expect(() => secretFromEnv('NOPE', 'agent.program.upstream.apiKeyEnv', {})).toThrow(
      'Invalid agent.program.upstream.apiKeyEnv: the environment variable NOPE is not set',
    );
  });
});

describe('the option names a config gives', () => {
  it("the openai agent's: apiKeyEnv is one; a misspelt one is named with the fix, by path alone", () => {
    expect(checkOpenAIAgentConfigOptions({ model: 'm', apiKeyEnv: 'KEY', temperature: 1 })).toEqual([]);
    expect(checkOpenAIAgentConfigOptions({ model: 'm', temprature: 0.7 })).toEqual([
      {
        path: '$.agent.options.temprature',
        message: 'unknown option of the openai agent; did you mean temperature?',
      },
    ]);
  });

  it("the chat model's (the LLM editor's model), at the path given", () => {
    expect(checkOpenAIChatModelConfigOptions({ model: 'm', apiKeyEnv: 'KEY' })).toEqual([]);
    expect(checkOpenAIChatModelConfigOptions({ model: 'm', max_tokens: 5 }, '$.x.model')).toEqual([
      {
        path: '$.x.model.max_tokens',
        message: 'unknown option of the OpenAI chat model; did you mean maxTokens? (sent as max_tokens)',
      },
    ]);
    expect(checkOpenAIChatModelConfigOptions(undefined)).toEqual([]);
  });
});
