import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Trajectory } from '@skillrl/core';
import { evolve, internalize } from '@skillrl/orchestrator';
import { type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/create-cli.js';
import { everyFile, evolveConfig, internalizeConfig, tempDir, writeConfig } from './support.js';

const KEY = 'sk-test-orchestrator-0123456789';

let server: FakeOpenAIServer;

beforeAll(async () => {
  process.env.SKILLRL_TEST_KEY = KEY;
  server = await startFakeOpenAI({
    seed: 5,
    // The fake task model examines its surroundings, then inventories: valid household actions.
    respond: (request, ctx) => {
      const system = String(request.messages?.[0]?.content ?? '');
      if (system.startsWith('You are a skill editor')) {
        // Every third reply breaks the name rule, so the editor's repair path runs too.
        const name = ctx.index % 3 === 0 ? 'Bad_Name' : `household-steps-${ctx.index % 5}`;
        const steps = ['go to the receptacle', 'take the object', 'put it in place'].slice(
          0,
          1 + (ctx.index % 3),
        );
        return `Here is the revision.\n\n\`\`\`markdown\n---\nname: ${name}\ndescription: Steps for household tasks.\n---\n\n${steps.map((t, i) => `${i + 1}. ${t}`).join('\n')}\n\`\`\`\n`;
      }
      return ctx.index % 2 === 0 ? 'Thought: check.\nAction: look' : 'Action: inventory';
    },
    faults: {
      rate: 0.15,
      kinds: ['rate-limit', 'server-error', 'drop', 'truncated-json', 'hang'],
      retryAfterMs: 5,
    },
  });
});

afterAll(async () => {
  await server.close();
  delete process.env.SKILLRL_TEST_KEY;
});

const llmAgent = () => ({
  name: 'openai',
  options: {
    model: 'fake-model',
    baseURL: server.baseURL,
    apiKeyEnv: 'SKILLRL_TEST_KEY',
    timeoutMs: 300,
    retry: { maxRetries: 6, baseDelayMs: 2, maxDelayMs: 10 },
  },
});

describe('against the fake OpenAI server with faults', () => {
  it('evolve with the LLM task model finishes and records every rollout; the key never reaches disk', async () => {
    const dir = tempDir('llm-evolve');
    const config = evolveConfig(
      { name: 'llm', agent: llmAgent(), maxSteps: 4 },
      { generations: 1, candidates: 2, episodes: 2 },
    );
    const configPath = writeConfig(dir, config);
    const result = await evolve(config as never, { configPath });
    const rollouts = readFileSync(join(result.dir, 'rollouts.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Trajectory);
    // 2 tasks × s0 × 2 + 2 tasks × 2 candidates × 2
    expect(rollouts).toHaveLength(12);
    // Faults were injected and survived by retries: the model's actions made it into the trajectories.
    expect(server.stats().received).toBeGreaterThan(server.stats().completed);
    expect(rollouts.some((t) => t.steps.some((s) => s.action === 'look'))).toBe(true);
    for (const t of rollouts) expect(t.error === undefined || typeof t.error.code === 'string').toBe(true);
    for (const file of everyFile(result.dir)) expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    const config2 = JSON.parse(readFileSync(join(result.dir, 'config.json'), 'utf8'));
    expect(config2.agent.options.apiKeyEnv).toBe('SKILLRL_TEST_KEY');
  }, 60_000);

  it('evolve with the LLM editor proposing skills for the LLM task model (inference mode)', async () => {
    const dir = tempDir('llm-editor');
    const editor = {
      name: 'llm-editor',
      options: {
        model: {
          model: 'fake-model',
          baseURL: server.baseURL,
          apiKeyEnv: 'SKILLRL_TEST_KEY',
          timeoutMs: 300,
          retry: { maxRetries: 6, baseDelayMs: 2, maxDelayMs: 10 },
        },
        logprobs: true,
      },
    };
    const config = evolveConfig(
      { name: 'llm-editor', agent: llmAgent(), maxSteps: 3, tasks: { split: 'train', limit: 1 } },
      { mode: 'inference', generations: 2, candidates: 2, episodes: 1, generator: editor },
    );
    const configPath = writeConfig(dir, config);
    // Through the CLI, as a user runs it.
    const out: string[] = [];
    const code = await runCli(['run', configPath, '--json'], {
      out: (t) => out.push(t),
      err: (t) => out.push(t),
    });
    expect(code, out.join('\n')).toBe(0);
    const result = JSON.parse(out[out.length - 1] as string) as { dir: string };
    const candidates = readFileSync(join(result.dir, 'candidates.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(candidates.map((c) => c.key)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^g1\//), expect.stringMatching(/^g2\//)]),
    );
    for (const record of candidates) {
      for (const c of record.candidates) expect(c.skill.name).toMatch(/^[a-z0-9-]+$/);
    }
    // Log-probs the endpoint returned are kept, so the candidates can be exported for training.
    expect(candidates[0].candidates[0].logProbs.length).toBeGreaterThan(0);
    for (const file of everyFile(result.dir)) expect(readFileSync(file, 'utf8')).not.toContain(KEY);
  }, 60_000);

  it('internalize with the LLM task model and the external trainer writes paired rollouts', async () => {
    const dir = tempDir('llm-int');
    const config = internalizeConfig(
      { name: 'llm', agent: llmAgent(), maxSteps: 3, tasks: { split: 'train', limit: 4 } },
      {
        steps: 2,
        tasksPerStep: 2,
        groupSize: 2,
        validateEvery: 2,
        validation: { split: 'valid_seen', limit: 2 },
        trainer: 'external',
      },
    );
    const configPath = writeConfig(dir, config);
    const result = await internalize(config as never, { configPath });
    // 2 steps × 2 tasks × 2 + two validations (step 0 and the last) × 2 tasks × 2 conditions
    expect(result.metrics.rollouts).toBe(16);
    const rollouts = readFileSync(join(result.dir, 'rollouts.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Trajectory);
    expect(rollouts.filter((t) => t.condition === 1).length).toBeGreaterThan(0);
    expect(rollouts.filter((t) => t.condition === 0).length).toBeGreaterThan(0);
  }, 60_000);
});
