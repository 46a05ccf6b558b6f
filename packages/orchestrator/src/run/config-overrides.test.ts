import type { RunConfig } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { applyOverrides, parseOverride, resumeOverrideProblem } from './config-overrides.js';

const refused = (path: string) => {
  try {
    parseOverride(`${path}=1`);
  } catch (error) {
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`--set ${path} was accepted`);
};

describe('resume --set: only what cannot change what the run computes', () => {
  it.each([
    'agent.options.baseURL',
    'agent.options.baseURLs',
    'agent.options.baseURLs.1',
    'agent.options.apiKeyEnv',
    'agent.options.timeoutMs',
    'agent.options.retry',
    'agent.options.retry.maxRetries',
    'agent.options.concurrency',
    'agent.options.requestsPerMinute',
    'agent.options.tokensPerMinute',
    'agent.options.http.maxSockets',
    'agent.options.futures.pollIntervalMs',
    'evolve.generator.options.model.baseURL',
    'evolve.generator.options.model.apiKeyEnv',
    'evolve.generator.options.model.retry.baseDelayMs',
    'evolve.generator.options.trainer.options.baseURL',
    'adapter.options.verifier.judge.baseURL',
    'adapter.options.verifier.judge.maxRetries',
    'adapter.options.tools.web.baseURLEnv',
    'internalize.trainer.options.timeoutMs',
    'concurrency',
    'health.maxErrorShare',
    'store.compression',
    'workers',
    'workers.redis',
  ])('%s is allowed', (path) => {
    expect(resumeOverrideProblem(path)).toBeUndefined();
    expect(parseOverride(`${path}=2`)).toEqual({ path, value: 2 });
  });

  it.each([
    ['agent.options.model', 'start a new run for another model'],
    ['agent.options.baseModel', 'start a new run for another model'],
    ['evolve.generator.options.model', 'start a new run for another model'],
    ['evolve.generator.options.model.model', 'start a new run for another model'],
    ['agent.options.temperature', 'start a new run for other sampling options'],
    ['agent.options.topP', 'start a new run for other sampling options'],
    ['agent.options.maxTokens', 'start a new run for other sampling options'],
    ['agent.options.extraBody.top_k', 'start a new run for other sampling options'],
    ['evolve.generator.options.model.temperature', 'start a new run for other sampling options'],
    ['agent.options.systemPrompt', 'start a new run for another prompt'],
    ['agent.options.skillTemplate', 'start a new run for another prompt'],
    ['adapter.options.verifier.judge.template', 'start a new run for another prompt'],
    ['agent.options.cache', 'start a new run to change it'],
    ['agent.options', 'start a new run to change it'],
    ['agent', 'start a new run to change it'],
    ['adapter.options.path', 'start a new run to change it'],
    ['internalize.steps', 'start a new run to change it'],
    ['seed', 'start a new run to change it'],
    ['concurrency.x', 'start a new run to change it'],
  ])('%s is refused: %s', (path, advice) => {
    const message = refused(path);
    expect(message).toContain(
      `"${path}" cannot be changed on resume: only endpoints, keys, timeouts, retries, rate limits and concurrency can (they do not change what the run computes); ${advice}`,
    );
    expect(message).toContain('Allowed: concurrency, health.…, store.…, workers.…, and baseURL, baseURLs');
  });

  it('applyOverrides checks each path the same way, and `run --set` (anyPath) may change anything', () => {
    const config = {
      method: 'internalize',
      seed: 1,
      adapter: 'household',
      tasks: { split: 'train' },
      agent: { name: 'openai', options: { model: 'a', baseURL: 'http://127.0.0.1:1/v1' } },
    } as unknown as RunConfig;
    expect(() => applyOverrides(config, [{ path: 'agent.options.model', value: 'b' }])).toThrow(
      /"agent\.options\.model" cannot be changed on resume/,
    );
    const resumed = applyOverrides(config, [
      { path: 'agent.options.baseURL', value: 'http://127.0.0.1:2/v1' },
      { path: 'agent.options.retry.maxRetries', value: 3 },
    ]);
    expect(resumed.config.agent).toEqual({
      name: 'openai',
      options: { model: 'a', baseURL: 'http://127.0.0.1:2/v1', retry: { maxRetries: 3 } },
    });
    expect(resumed.applied).toEqual([
      { path: 'agent.options.baseURL', value: 'http://127.0.0.1:2/v1', previous: 'http://127.0.0.1:1/v1' },
      { path: 'agent.options.retry.maxRetries', value: 3 },
    ]);
    const fresh = applyOverrides(config, [{ path: 'agent.options.model', value: 'b' }], { anyPath: true });
    expect((fresh.config.agent as { options: { model: string } }).options.model).toBe('b');
    expect(parseOverride('agent.options.temperature=0.7', { anyPath: true }).value).toBe(0.7);
  });

  it('a component named by a string gets its object form for an endpoint option', () => {
    const config = {
      evolve: { generator: { name: 'llm-editor', options: { trainer: 'tinker' } } },
    } as unknown as RunConfig;
    const out = applyOverrides(config, [
      { path: 'evolve.generator.options.trainer.options.baseURL', value: 'http://127.0.0.1:3' },
    ]);
    expect(out.config.evolve?.generator).toEqual({
      name: 'llm-editor',
      options: { trainer: { name: 'tinker', options: { baseURL: 'http://127.0.0.1:3' } } },
    });
  });
});
