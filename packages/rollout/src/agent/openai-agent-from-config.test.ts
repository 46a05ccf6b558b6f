import { InvalidArgumentError, MissingFieldError, redactSecrets } from '@skillrl/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIAgentFromConfig } from './openai-agent-from-config.js';

const VAR = 'ROLLOUT_AGENT_FROM_CONFIG_KEY';
afterEach(() => {
  delete process.env[VAR];
});

describe('createOpenAIAgentFromConfig', () => {
  it('builds the agent with the key read from apiKeyEnv, registered as a secret', () => {
    const key = 'sk-agent-from-config-41c2';
    process.env[VAR] = key;
    const agent = createOpenAIAgentFromConfig(
      { model: 'fake-model', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: VAR },
      { seed: 3 },
    );
    expect(agent.model).toBe('fake-model');
    expect(redactSecrets(key)).not.toContain(key);
  });

  it('model is required: a MissingFieldError naming where the options sit', () => {
    let thrown: unknown;
    try {
      createOpenAIAgentFromConfig({ baseURL: 'http://127.0.0.1:9/v1' }, { seed: 1 });
    } catch (error) {
      thrown = error;
    }
    expect(MissingFieldError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ component: 'agent.options', field: 'model' });
  });

  it('an unset apiKeyEnv is a typed error naming the field', () => {
    let thrown: unknown;
    try {
      createOpenAIAgentFromConfig({ model: 'm', apiKeyEnv: VAR }, { seed: 1 });
    } catch (error) {
      thrown = error;
    }
    expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ argument: 'agent.options.apiKeyEnv' });
    expect((thrown as Error).message).toBe(
      `Invalid agent.options.apiKeyEnv: the environment variable ${VAR} is not set`,
    );
  });
});
