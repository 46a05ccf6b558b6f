import { join } from 'node:path';
import { type FakeTinkerServer, startFakeTinker } from '@skillrl/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { againstFake } from './configs.js';
import {
  cleanTestRuns,
  EXAMPLE,
  everyText,
  missingRunFiles,
  readJson,
  readJsonl,
  skillrl,
  TEST_RUNS,
  writeTestConfig,
} from './run-example.js';

// Everything here runs against the testkit's fake Tinker server (built from the Tinker SDK's routes and
// types, hosting a small learnable model), never the live service.

const servers: FakeTinkerServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => cleanTestRuns(['skillc', 'check-tokenizer']));

interface ValidationEvent {
  type: string;
  step: number;
  validation: { families: Record<string, { withSkill: number; withoutSkill: number }> };
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('examples/tinker-skillc', () => {
  it('the shipped config passes skillrl check; a missing tokenizer folder is named', async () => {
    const run = await skillrl(['check', join(EXAMPLE, 'skillc.yaml')]);
    expect(run.code, run.err.join('\n')).toBe(0);
    for (const file of ['hosted.yaml', 'skyrl-tx.yaml']) {
      // The real services' configs name a tokenizer folder the user downloads (see the README): check says so.
      const real = await skillrl(['check', join(EXAMPLE, file)]);
      expect(real.code, file).toBe(1);
      const text = [...real.out, ...real.err].join('\n');
      expect(text).toContain('$.agent.options.tokenizer');
      expect(text).toContain('has no tokenizer.json or tokenizer_config.json');
    }
    const bad = againstFake('http://127.0.0.1:1');
    (bad.agent as { options: Record<string, unknown> }).options.tokenizer = '/nonexistent-tokenizer';
    const path = writeTestConfig('check-tokenizer', bad);
    const checked = await skillrl(['check', path]);
    expect(checked.code).toBe(1);
    expect(checked.out.join('\n') + checked.err.join('\n')).toContain(
      '/nonexistent-tokenizer has no tokenizer.json',
    );
  });

  it('skillrl run trains SKILLC on Tinker: success without the skill rises, one on-policy update per step, no key on disk', async () => {
    const key = 'tml-example-skillc-key-0123456789abcdef';
    const server = await startFakeTinker({ apiKey: key, seed: 3 });
    servers.push(server);
    process.env.EXAMPLE_TINKER_KEY = key;
    try {
      const config = againstFake(server.url, { name: 'skillc' });
      (config.agent as { options: Record<string, unknown> }).options.apiKeyEnv = 'EXAMPLE_TINKER_KEY';
      const path = writeTestConfig('skillc', config);
      const run = await skillrl(['run', path, '--run-dir', join(TEST_RUNS, 'skillc')]);
      expect(run.code, run.err.join('\n')).toBe(0);
      const { dir } = run.result;
      expect(missingRunFiles(dir)).toEqual([]);

      // Learning: the paired validation's success without the skill, before any update and after the last.
      const validations = readJsonl<ValidationEvent>(join(dir, 'events.jsonl')).filter(
        (e) => e.type === 'validation',
      );
      const without = (e: ValidationEvent) =>
        mean(Object.values(e.validation.families).map((f) => f.withoutSkill));
      const withSkill = (e: ValidationEvent) =>
        mean(Object.values(e.validation.families).map((f) => f.withSkill));
      const first = validations[0] as ValidationEvent;
      const last = validations.at(-1) as ValidationEvent;
      expect(first.step).toBe(0);
      expect(last.step).toBe(8);
      expect(without(first)).toBeLessThan(0.35);
      expect(without(last) - without(first)).toBeGreaterThanOrEqual(0.4);
      // The skill helped the untrained policy; after training it hardly does (internalized).
      expect(withSkill(first) - without(first)).toBeGreaterThan(0.2);
      expect(withSkill(last) - without(last)).toBeLessThan(0.15);

      // One update per step, each sampled from the weights of the update before (on-policy: ratio 1).
      const steps = readJsonl<{ type: string; step: number; metrics: Record<string, number> }>(
        join(dir, 'events.jsonl'),
      ).filter((e) => e.type === 'step');
      expect(steps.map((s) => s.metrics.train_update)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      for (const s of steps) expect(Math.abs(s.metrics.train_sampler_kl ?? 1)).toBeLessThan(1e-9);
      const [training] = server.trainingRuns();
      expect(training?.updates).toHaveLength(8);
      const rollouts = readJsonl<{
        id: string;
        steps: { tokenIds?: number[]; logProbs?: number[]; info?: { tinker?: { sampler: string } } }[];
      }>(join(dir, 'rollouts.jsonl'));
      for (const r of rollouts.filter((t) => /^s\d+\//.test(t.id))) {
        const step = Number(/^s(\d+)\//.exec(r.id)?.[1]);
        const turn = r.steps[0];
        expect(turn?.logProbs?.length).toBe(turn?.tokenIds?.length);
        expect(
          turn?.info?.tinker?.sampler.endsWith(`skillrl-${String(step - 1).padStart(6, '0')}`),
          r.id,
        ).toBe(true);
      }
      // The training run and the latest checkpoint's paths are in the run directory.
      const summary = readJson<{ metrics: Record<string, number> }>(join(dir, 'summary.json'));
      expect(summary.metrics.final_success_without).toBeGreaterThan(0.5);
      // The key went to the server as X-API-Key and nowhere on disk.
      expect(everyText(dir)).not.toContain(key);
      expect(everyText(dir)).toContain('EXAMPLE_TINKER_KEY');
      expect(JSON.stringify(server.requests)).not.toContain(key);
    } finally {
      delete process.env.EXAMPLE_TINKER_KEY;
    }
  });
});
