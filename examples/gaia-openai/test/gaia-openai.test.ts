import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Trajectory } from '@skillrl/core';
import type { RunConfig } from '@skillrl/orchestrator';
import { buildReport } from '@skillrl/report';
import { type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFakeGaiaModel,
  EDITOR_SKILLS,
  FAULT_PLAN,
  isEditorRequest,
  questionOf,
  REPLIES,
  readRows,
} from './fake-gaia-model.js';
import {
  cleanTestRuns,
  EXAMPLE,
  everyFile,
  exampleConfig,
  missingRunFiles,
  readJsonl,
  skillrl,
  TEST_RUNS,
  writeTestConfig,
} from './run-example.js';

const KEY = 'sk-example-gaia-0123456789abcdef';
const rows = readRows(EXAMPLE);
const previousKey = process.env.OPENAI_API_KEY;
let server: FakeOpenAIServer;

beforeAll(async () => {
  // The configs name OPENAI_API_KEY; the test sets it to a key that must never reach the disk.
  process.env.OPENAI_API_KEY = KEY;
  const model = createFakeGaiaModel(rows);
  server = await startFakeOpenAI({
    seed: 9,
    latencyMs: [1, 5],
    respond: (request) => model.respond(request),
    faults: {
      retryAfterMs: 5,
      plan: ({ request, attempt }) => {
        if (attempt > 0 || isEditorRequest(request)) return undefined;
        const row = questionOf(request, rows);
        return row ? FAULT_PLAN[row.task_id] : undefined;
      },
    },
  });
});

afterAll(async () => {
  await server.close();
  if (previousKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = previousKey;
  cleanTestRuns(['gaia', 'gaia-skill-r1']);
});

/** Points a config's endpoints at the fake server, with test-sized timeouts and retry delays. */
function againstFake(file: string, name: string, evolve: Record<string, unknown> = {}): string {
  const config = exampleConfig(file);
  const endpoint = {
    baseURL: server.baseURL,
    // A hung request is given up after this and retried; generous enough that a loaded machine never
    // times out an answered one, which would add retries the exact counts below do not expect.
    timeoutMs: 3000,
    retry: { maxRetries: 6, baseDelayMs: 2, maxDelayMs: 10 },
  };
  const agent = config.agent as { name: string; options: Record<string, unknown> };
  const adapter = config.adapter as { options: { path: string } };
  const section = { ...config.evolve, ...evolve } as Record<string, unknown>;
  const generator = section.generator as { name: string; options: { model: object } } | undefined;
  return writeTestConfig(name, {
    ...config,
    name,
    // The shipped path is relative to the example folder (where `skillrl run` is meant to be started).
    adapter: { ...adapter, options: { ...adapter.options, path: join(EXAMPLE, adapter.options.path) } },
    agent: { ...agent, options: { ...agent.options, ...endpoint } },
    evolve: {
      ...section,
      ...(generator
        ? {
            generator: {
              ...generator,
              options: { ...generator.options, model: { ...generator.options.model, ...endpoint } },
            },
          }
        : {}),
    },
  } as RunConfig);
}

function expectNoKey(dir: string, output: readonly string[]): void {
  for (const file of everyFile(dir)) expect(readFileSync(file, 'utf8'), file).not.toContain(KEY);
  expect(output.join('\n')).not.toContain(KEY);
}

describe('examples/gaia-openai', () => {
  it('both configs are valid as shipped, and the data path resolves from the example folder', async () => {
    for (const file of ['gaia.yaml', 'gaia-skill-r1.yaml']) {
      const check = await skillrl(['check', join(EXAMPLE, file)]);
      expect(check.code, check.out.join('\n')).toBe(0);
      const adapter = exampleConfig(file).adapter as { options: { path: string } };
      expect(existsSync(join(EXAMPLE, adapter.options.path))).toBe(true);
    }
  });

  it('answers every question through faults; rewards are GAIA scores of what the endpoint said', async () => {
    const before = server.stats();
    const run = await skillrl([
      'run',
      againstFake('gaia.yaml', 'gaia'),
      '--run-dir',
      join(TEST_RUNS, 'gaia'),
    ]);
    expect(run.code, run.err.join('\n')).toBe(0);
    const { dir, metrics } = run.result;
    expect(missingRunFiles(dir).filter((f) => f !== 'advantages.jsonl')).toEqual([]);

    // Planned: 6 questions × 1 episode, no skill.
    const rollouts = readJsonl<Trajectory>(join(dir, 'rollouts.jsonl'));
    expect(rollouts).toHaveLength(6);
    expect(metrics.rollouts).toBe(6);
    for (const t of rollouts) {
      expect(t.error).toBeUndefined();
      expect(t.condition).toBe(0);
      expect(t.steps).toHaveLength(1);
      expect(t.reward, t.taskId).toBe(REPLIES[t.taskId]?.reward);
      expect(t.verdict.passed).toBe(t.reward === 1);
    }
    // Three right of six: the run's score is their mean.
    expect(metrics.final_reward).toBeCloseTo(0.5, 12);
    // GAIA levels become the families; the string "2" in the file reads as level 2.
    expect(new Set(rollouts.map((t) => t.family))).toEqual(
      new Set(['gaia-level-1', 'gaia-level-2', 'gaia-level-3']),
    );
    expect(rollouts.find((t) => t.taskId === 'skillrl-gaia-example-0003')?.family).toBe('gaia-level-2');

    // Each planned fault hit one first try and was survived by a retry.
    const after = server.stats();
    for (const kind of ['rate-limit', 'server-error', 'hang', 'drop', 'truncated-json'] as const) {
      expect(after.faulted[kind] - before.faulted[kind], kind).toBe(1);
    }
    expect(after.received - before.received).toBe(11); // 6 questions + 5 retries
    expect(after.completed - before.completed).toBe(6);

    expectNoKey(dir, [...run.out, ...run.err]);
    const saved = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(saved.agent.options.apiKeyEnv).toBe('OPENAI_API_KEY');
    const report = buildReport(dir).summary;
    expect(report).toMatchObject({ status: 'completed', rollouts: 6, rolloutErrors: 0, notes: [] });
  });

  it('Skill-R1 with the LLM editor: candidates come from the endpoint, and the better skill is carried', async () => {
    const run = await skillrl([
      'run',
      againstFake('gaia-skill-r1.yaml', 'gaia-skill-r1', { generations: 1 }),
      '--run-dir',
      join(TEST_RUNS, 'gaia-skill-r1'),
    ]);
    expect(run.code, run.err.join('\n')).toBe(0);
    const { dir, metrics } = run.result;
    // Planned: no starting skill, so no generation 0; 1 generation × 6 questions × K = 2 × M = 1.
    const rollouts = readJsonl<Trajectory>(join(dir, 'rollouts.jsonl'));
    expect(rollouts).toHaveLength(12);
    expect(rollouts.every((t) => t.condition === 1 && t.generation === 1)).toBe(true);

    const candidates = readJsonl<{ taskId: string; candidates: { skill: { name: string } }[] }>(
      join(dir, 'candidates.jsonl'),
    );
    expect(candidates).toHaveLength(6);
    for (const record of candidates) {
      expect(record.candidates.map((c) => c.skill.name).sort()).toEqual([...EDITOR_SKILLS].sort());
    }
    // Under either skill the model answers as before, except that "double-check" fixes question 5.
    for (const t of rollouts) {
      const name = t.skill?.name;
      const expected =
        t.taskId === 'skillrl-gaia-example-0005' && name === 'gaia-double-check'
          ? 1
          : REPLIES[t.taskId]?.reward;
      expect(t.reward, `${t.taskId} under ${name}`).toBe(expected);
    }
    // So question 5 carries the double-check skill out of generation 1, and the final score is 4 of 6.
    expect(
      existsSync(join(dir, 'skills', 'final', 'skillrl-gaia-example-0005', 'gaia-double-check', 'SKILL.md')),
    ).toBe(true);
    expect(metrics.final_reward).toBeCloseTo(4 / 6, 12);
    expectNoKey(dir, [...run.out, ...run.err]);
  });
});
