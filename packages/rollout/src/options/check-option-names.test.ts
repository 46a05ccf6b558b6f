import { describe, expect, it } from 'vitest';
import { createOpenAIAgent } from '../agent/create-openai-agent.js';
import {
  checkOpenAIAgentOptions,
  checkOpenAIChatModelOptions,
  OPENAI_CHAT_PARAMETERS,
} from './check-option-names.js';
import { UnknownOptionError } from './unknown-option-error.js';

describe('checkOpenAIAgentOptions', () => {
  it('accepts every option of the agent, and the names a caller adds', () => {
    expect(
      checkOpenAIAgentOptions(
        {
          model: 'm',
          baseURL: 'http://x/v1',
          temperature: 0.7,
          maxTokens: 10,
          mode: 'tools',
          retry: { maxRetries: 1, baseDelayMs: 1 },
          http: { maxSockets: 4 },
          actionParser: { formats: ['tag'] },
          extraBody: { presence_penalty: 1, anything_at_all: true },
          apiKeyEnv: 'KEY',
        },
        'agent.options',
        ['apiKeyEnv'],
      ),
    ).toEqual([]);
    // A parser given as a function is not an options object.
    expect(checkOpenAIAgentOptions({ model: 'm', actionParser: () => ({}) })).toEqual([]);
  });

  it('names the path and the fix: a misspelling, the API spelling, an API field we do not set', () => {
    const issues = checkOpenAIAgentOptions(
      {
        model: 'm',
        temprature: 0.7,
        max_tokens: 5,
        presence_penalty: 0.5,
        Temperature: 1,
        retry: { maxRetry: 2 },
      },
      'agent.options',
    );
    expect(issues).toEqual([
      {
        path: 'agent.options.temprature',
        message: 'unknown option of the openai agent; did you mean temperature?',
        suggestion: 'temperature',
      },
      {
        path: 'agent.options.max_tokens',
        message: 'unknown option of the openai agent; did you mean maxTokens? (sent as max_tokens)',
        suggestion: 'maxTokens',
      },
      {
        path: 'agent.options.presence_penalty',
        message:
          'unknown option of the openai agent; presence_penalty is an OpenAI chat-completion field that the openai agent does not set: send it with extraBody: { presence_penalty: … }',
        suggestion: 'extraBody.presence_penalty',
      },
      {
        path: 'agent.options.Temperature',
        message: 'unknown option of the openai agent; did you mean temperature?',
        suggestion: 'temperature',
      },
      {
        path: 'agent.options.retry.maxRetry',
        message: "unknown option of the openai agent's retry; did you mean maxRetries?",
        suggestion: 'maxRetries',
      },
    ]);
  });

  it('with nothing close, lists the options; one or two letters are never guessed at', () => {
    const [far] = checkOpenAIAgentOptions({ model: 'm', colour: 'blue' });
    expect(far?.message).toMatch(/^unknown option of the openai agent; expected one of model, baseURL, /);
    expect(far?.message).toMatch(/\(other OpenAI request fields go in extraBody\)$/);
    expect(far?.suggestion).toBeUndefined();
    const [short] = checkOpenAIAgentOptions({ model: 'm', x: 1 });
    expect(short?.suggestion).toBeUndefined();
  });

  it("the chat model's own list: an agent-only option is unknown there", () => {
    expect(checkOpenAIChatModelOptions({ model: 'm', sampling: 'auto' })).toEqual([]);
    expect(
      checkOpenAIChatModelOptions({ model: 'm', historyWindow: 3 }, 'evolve.generator.options.model'),
    ).toEqual([expect.objectContaining({ path: 'evolve.generator.options.model.historyWindow' })]);
    expect(checkOpenAIAgentOptions({ model: 'm', sampling: 'auto' })).toHaveLength(1);
  });

  it("lists OpenAI's chat-completion fields", () => {
    expect(OPENAI_CHAT_PARAMETERS).toEqual(
      expect.arrayContaining([
        'temperature',
        'top_p',
        'max_tokens',
        'presence_penalty',
        'tool_choice',
        'seed',
      ]),
    );
  });

  it('createOpenAIAgent throws an UnknownOptionError naming the first and counting the rest', () => {
    let caught: unknown;
    try {
      createOpenAIAgent({ model: 'm', temprature: 0.7, topp: 0.9 } as never);
    } catch (e) {
      caught = e;
    }
    expect(UnknownOptionError.isInstance(caught)).toBe(true);
    const error = caught as UnknownOptionError;
    expect(error.option).toBe('options.temprature');
    expect(error.suggestion).toBe('temperature');
    expect(error.message).toBe(
      'Invalid options.temprature: unknown option of the openai agent; did you mean temperature? (and 1 more: options.topp)',
    );
    expect(error.code).toBe('SKILLRL_INVALID_ARGUMENT');
  });
});
