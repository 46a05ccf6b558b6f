import { join, resolve } from 'node:path';
import type { RunConfig } from '@skillrl/orchestrator';
import {
  type FakeOpenAIServer,
  type FakeTinkerRequestInfo,
  type FakeTinkerServer,
  startFakeOpenAI,
  startFakeTinker,
} from '@skillrl/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { respond } from '../frozen-reader.mjs';
import { againstFakes } from './configs.js';
import {
  cleanTestRuns,
  EXAMPLE,
  killAndResume,
  latestPolicyState,
  missingRunFiles,
  readJson,
  readJsonl,
  skillrl,
  TEST_RUNS,
  writeTestConfig,
} from './run-example.js';

// Against the testkit's fakes only: the fake Tinker server (built from the Tinker SDK's routes and types,
// hosting a small learnable model) trains the editor; the fake OpenAI-compatible server is the frozen task
// model (frozen-reader.mjs). Never the live services.

const closers: (FakeTinkerServer | FakeOpenAIServer)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((s) => s.close()));
});
afterAll(() => cleanTestRuns(['skill-r1', 'frozen-tinker', 'resume-whole', 'resume-killed']));

async function fakes(plan?: (request: FakeTinkerRequestInfo) => undefined) {
  const tinker = await startFakeTinker({ seed: 4, ...(plan ? { faults: { plan } } : {}) });
  const taskModel = await startFakeOpenAI({ respond, record: false });
  closers.push(tinker, taskModel);
  return { tinker, taskModel };
}

interface Summary {
  metrics: Record<string, number>;
}

describe('examples/tinker-skill-r1', () => {
  it('the shipped configs pass skillrl check (the real services name a tokenizer folder to download)', async () => {
    const run = await skillrl(['check', join(EXAMPLE, 'skill-r1.yaml')]);
    expect(run.code, run.err.join('\n')).toBe(0);
    for (const file of ['hosted.yaml', 'skyrl-tx.yaml']) {
      const real = await skillrl(['check', join(EXAMPLE, file)]);
      const text = [...real.out, ...real.err].join('\n');
      expect(text, file).toContain('$.evolve.generator.options.trainer.options.tokenizer');
      expect(text).toContain('has no tokenizer.json or tokenizer_config.json');
    }
  });

  it('Skill-R1 GRPO trains the LLM editor on Tinker: the skills its candidates and the final carried skills earn rise', async () => {
    const { tinker, taskModel } = await fakes();
    const config = againstFakes(tinker.url, taskModel.baseURL, { name: 'skill-r1' });
    const run = await skillrl([
      'run',
      writeTestConfig('skill-r1', config),
      '--run-dir',
      join(TEST_RUNS, 'skill-r1'),
    ]);
    expect(run.code, run.err.join('\n')).toBe(0);
    const { dir, metrics } = run.result;
    expect(missingRunFiles(dir)).toEqual([]);
    // The candidates' mean reward per generation, and the final carried skills on fresh episodes.
    expect(metrics.generation_1_mean).toBeLessThan(0.3);
    expect((metrics.generation_6_mean ?? 0) - (metrics.generation_1_mean ?? 0)).toBeGreaterThanOrEqual(0.3);
    expect((metrics.final_eval_reward ?? 0) - (metrics.generation_1_mean ?? 0)).toBeGreaterThanOrEqual(0.4);
    // One update of the editor per generation, from the two-level advantages, on-policy.
    const [training] = tinker.trainingRuns();
    expect(training?.updates).toHaveLength(6);
    const generations = readJsonl<{ type: string; metrics?: Record<string, number> }>(
      join(dir, 'events.jsonl'),
    ).filter((e) => e.type === 'generation');
    expect(generations.length).toBeGreaterThan(0);
    const candidates = readJsonl<{
      candidates: { tokenIds?: number[]; logProbs?: number[]; info?: { prompt?: unknown } }[];
    }>(join(dir, 'candidates.jsonl'));
    for (const c of candidates.flatMap((r) => r.candidates)) {
      expect(c.logProbs?.length).toBe(c.tokenIds?.length);
      expect(c.info?.prompt).toBeDefined();
    }
    const state = latestPolicyState(dir, 'generator');
    expect(state.updates).toBe(6);
    expect(tinker.lineageOf(state.samplerPath)).toEqual(training?.lineage);
  });

  it('the frozen task model can be a Tinker sampler itself (agent: tinker, never trained)', async () => {
    const { tinker, taskModel } = await fakes();
    const config = againstFakes(tinker.url, taskModel.baseURL, { name: 'frozen-tinker' }) as RunConfig & {
      evolve: Record<string, unknown>;
    };
    // The tiny-chat answerer reads colors from its context, so it follows the skill it is given.
    config.agent = {
      name: 'tinker',
      options: {
        baseURL: tinker.url,
        baseModel: 'skillrl/tiny-chat',
        tokenizer: resolve(EXAMPLE, '../../packages/testkit/fixtures/tiny-chat'),
        maxTokens: 4,
      },
    };
    config.evolve = { ...config.evolve, generations: 2, finalEpisodes: 2 };
    const run = await skillrl([
      'run',
      writeTestConfig('frozen-tinker', config),
      '--run-dir',
      join(TEST_RUNS, 'frozen-tinker'),
    ]);
    expect(run.code, run.err.join('\n')).toBe(0);
    // Only the editor has a training run; the task model sampled the base model.
    const runs = tinker.trainingRuns();
    expect(runs.map((r) => r.baseModel)).toEqual(['skillrl/tiny-editor']);
    expect(runs[0]?.updates).toHaveLength(2);
    // Through a sampling session of the base model, as the SDK samples (or naming it, where none is used).
    const baseSessions = new Set(
      tinker
        .samplingSessions()
        .filter((s) => s.baseModel === 'skillrl/tiny-chat')
        .map((s) => s.id),
    );
    const samples = tinker.requests.filter(
      (r) =>
        r.route === 'asample' &&
        (r.body?.base_model === 'skillrl/tiny-chat' || baseSessions.has(String(r.body?.sampling_session_id))),
    );
    expect(samples.length).toBe(run.result.metrics.rollouts);
  });

  it('resume after SIGKILL gives the same editor updates as an uninterrupted run', async () => {
    const whole = await fakes();
    const wholeRun = await skillrl([
      'run',
      writeTestConfig(
        'resume-whole',
        againstFakes(whole.tinker.url, whole.taskModel.baseURL, { name: 'resume-whole' }),
      ),
      '--run-dir',
      join(TEST_RUNS, 'resume-whole'),
    ]);
    expect(wholeRun.code, wholeRun.err.join('\n')).toBe(0);
    const wholeState = latestPolicyState(wholeRun.result.dir, 'generator');
    const wholeLineage = whole.tinker.lineageOf(wholeState.samplerPath);

    const kills = killAndResume([
      ['optim_step', 2], // generation 2's update applied server-side, its checkpoint never written
      ['asample', 4], // proposals of the generation after the checkpoint, partly stored
    ]);
    const killed = await fakes(kills.plan);
    const path = writeTestConfig(
      'resume-killed',
      againstFakes(killed.tinker.url, killed.taskModel.baseURL, { name: 'resume-killed' }),
    );
    const dir = join(TEST_RUNS, 'resume-killed');
    const { signals, last } = await kills.run(path, dir);
    expect(last.code, last.err).toBe(0);
    expect(signals).toEqual(['SIGKILL', 'SIGKILL', null]);
    const summary = (d: string) => readJson<Summary>(join(d, 'summary.json')).metrics;
    expect(summary(dir)).toEqual(summary(wholeRun.result.dir));
    const rows = (d: string) =>
      readJsonl<{ key: string; rows: unknown[] }>(join(d, 'advantages.jsonl')).map((r) => [r.key, r.rows]);
    expect(rows(dir)).toEqual(rows(wholeRun.result.dir));
    const state = latestPolicyState(dir, 'generator');
    expect(state.updates).toBe(6);
    expect(killed.tinker.lineageOf(state.samplerPath)).toEqual(wholeLineage);
    expect(state.trainingRuns.length).toBeGreaterThan(1);
  });
});
