import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AdvantageBatch, Trajectory } from '@skillrl/core';
import { ValidationError } from '@skillrl/core';
import { SKILLC_STEP_BATCH_FIELDS } from '@skillrl/curriculum';
import { evolve, loadConfig, runConfig } from '@skillrl/orchestrator';
import { SKILL_R1_GENERATION_BATCH_FIELDS } from '@skillrl/skill-generator/generation';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/create-cli.js';
import { evolveConfig, internalizeConfig, tempDir, writeConfig } from './support.js';

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const errorRoles = (err: string) => [...err.matchAll(/^error: ([^:]+):/gm)].map((m) => m[1]);

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

/**
 * A third-party estimator by module path: it records every batch and returns zeros, and declares on its
 * factory, as a built-in does, which of its options two method fields replace.
 */
function writeRecorder(dir: string): string {
  const path = join(dir, 'recorder.mjs');
  writeFileSync(
    path,
    `import { appendFileSync } from 'node:fs';
function createRecorder(options = {}) {
  return {
    name: 'recorder',
    estimate(batch) {
      if (options.log) appendFileSync(options.log, JSON.stringify(batch) + '\\n');
      return { advantages: new Float64Array(batch.scores.length), metrics: {} };
    },
  };
}
createRecorder.batchOverrides = { attributionStrengths: ['strength'], interGenerationWeights: ['weight'] };
export const estimators = { recorder: createRecorder };
`,
  );
  return './recorder.mjs';
}

describe('estimator options a run overrides: refused by check and run, naming the option and the field', () => {
  it("internalize with skillc's lambda: check exits 1, run refuses before writing anything", async () => {
    const dir = tempDir('overrides-skillc');
    const path = writeConfig(
      dir,
      internalizeConfig({ estimator: { name: 'skillc', options: { lambda: 0.5, w: 0.3, scope: 'batch' } } }),
    );
    const r = await cli(['check', path]);
    expect(r.code).toBe(1);
    expect(errorRoles(r.err)).toEqual(['estimator.options.lambda']);
    expect(r.err).toContain(
      '$.estimator.options.lambda: is replaced by the batch field attributionStrengths, which internalize fills on every step',
    );
    expect(r.err).toContain('set the base λ as internalize.curriculum.lambda');
    const json = JSON.parse((await cli(['check', path, '--json'])).out);
    expect(json.ok).toBe(false);
    expect(
      json.components.find((c: { role: string }) => c.role === 'estimator.options.lambda').error.code,
    ).toBe('SKILLRL_VALIDATION');
    await expect(runConfig(loadConfig(path))).rejects.toThrow(ValidationError);
    await expect(runConfig(loadConfig(path))).rejects.toThrow(/\$\.estimator\.options\.lambda: is replaced/);
    expect(existsSync(join(dir, 'runs'))).toBe(false);
  });

  it("evolve with skill-r1's lambda and previousMeans: both named, lambda with evolve.lambda to set instead", async () => {
    const dir = tempDir('overrides-skill-r1');
    const path = writeConfig(
      dir,
      evolveConfig({
        estimator: {
          name: 'skill-r1',
          options: { lambda: 2, previousMeans: { a: 0.5 }, normalizeIntra: true },
        },
      }),
    );
    const r = await cli(['check', path]);
    expect(r.code).toBe(1);
    expect(errorRoles(r.err)).toEqual(['estimator.options.lambda', 'estimator.options.previousMeans']);
    expect(r.err).toContain(
      'is replaced by the batch field interGenerationWeights, which evolve fills on every generation (evolve.lambda, default 1; 0 under variant vanilla-grpo), so "skill-r1" never reads it; remove it and set evolve.lambda instead',
    );
    await expect(runConfig(loadConfig(path))).rejects.toThrow(/\$\.estimator\.options\.previousMeans/);
    expect(existsSync(join(dir, 'runs'))).toBe(false);
  });

  it("a package's estimator is checked by what its factory declares, in both methods", async () => {
    const dir = tempDir('overrides-package');
    const recorder = writeRecorder(dir);
    const internalizePath = writeConfig(
      dir,
      internalizeConfig({
        estimator: { package: recorder, name: 'recorder', options: { strength: 1, weight: 1 } },
      }),
      'internalize.yaml',
    );
    const a = await cli(['check', internalizePath]);
    expect(a.code).toBe(1);
    // weight is replaced by an evolve field: an internalize run leaves it alone.
    expect(errorRoles(a.err)).toEqual(['estimator.options.strength']);
    expect(a.err).toContain('is replaced by the batch field attributionStrengths');
    const evolvePath = writeConfig(
      dir,
      evolveConfig({
        estimator: { package: recorder, name: 'recorder', options: { strength: 1, weight: 1 } },
      }),
      'evolve.yaml',
    );
    const b = await cli(['check', evolvePath]);
    expect(errorRoles(b.err)).toEqual(['estimator.options.weight']);
    expect(b.err).toContain('is replaced by the batch field interGenerationWeights');
  });

  it("check creates a built-in estimator with the config's options, as run does: a misspelt value fails there", async () => {
    const dir = tempDir('overrides-typo');
    const path = writeConfig(
      dir,
      evolveConfig({ estimator: { name: 'skill-r1', options: { interBaseline: 'carried' } } }),
    );
    const r = await cli(['check', path]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error: estimator: .*options\.interBaseline/);
  });
});

describe("the batch fields each method's step declares it fills", () => {
  it('are exactly the fields of the batches internalize and evolve hand a package estimator', async () => {
    const dir = tempDir('batch-fields');
    const recorder = writeRecorder(dir);
    const fieldsOf = (log: string) => readJsonl<AdvantageBatch>(log);
    const internalizeLog = join(dir, 'internalize.jsonl');
    await runConfig(
      loadConfig(
        writeConfig(
          dir,
          internalizeConfig(
            {
              name: 'fields-i',
              estimator: { package: recorder, name: 'recorder', options: { log: internalizeLog } },
            },
            { steps: 2 },
          ),
          'internalize.yaml',
        ),
      ),
    );
    const evolveLog = join(dir, 'evolve.jsonl');
    await runConfig(
      loadConfig(
        writeConfig(
          dir,
          evolveConfig({
            name: 'fields-e',
            estimator: { package: recorder, name: 'recorder', options: { log: evolveLog } },
          }),
          'evolve.yaml',
        ),
      ),
    );
    for (const [method, log] of [
      ['internalize', internalizeLog],
      ['evolve', evolveLog],
    ] as const) {
      const batches = fieldsOf(log);
      expect(batches.length, method).toBeGreaterThan(0);
      const declared = { internalize: SKILLC_STEP_BATCH_FIELDS, evolve: SKILL_R1_GENERATION_BATCH_FIELDS };
      const expected = declared[method].map((f) => f.field).sort();
      for (const batch of batches) expect(Object.keys(batch).sort(), method).toEqual(expected);
    }
  });
});

describe("evolve with skill-r1's interBaseline 'carried-skill' and normalizeInter (the bench rows' options)", () => {
  it('checks, runs, and scores generation 2 against the carried candidate on the normalised scale', async () => {
    const dir = tempDir('carried-skill');
    const config = evolveConfig({
      name: 'carried',
      estimator: {
        name: 'skill-r1',
        options: { interBaseline: 'carried-skill', normalizeIntra: true, normalizeInter: true },
      },
    });
    const configPath = writeConfig(dir, config);
    const checked = await cli(['check', configPath]);
    expect(checked.code, checked.err).toBe(0);
    const result = await evolve(config as never, { configPath });
    const rows = readJsonl<{ unit: string; rows: { taskId: string; reward: number; advantage: number }[] }>(
      join(result.dir, 'advantages.jsonl'),
    );
    const s0 = readJsonl<Trajectory>(join(result.dir, 'rollouts.jsonl')).filter((t) => t.generation === 0);
    const g1 = rows.find((r) => r.unit === 'g1')?.rows ?? [];
    const g2 = rows.find((r) => r.unit === 'g2')?.rows ?? [];
    expect(g2.length).toBeGreaterThan(0);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    let compared = 0;
    for (const [unit, list] of [
      ['g1', g1],
      ['g2', g2],
    ] as const) {
      for (const taskId of new Set(list.map((r) => r.taskId))) {
        const mine = list.filter((r) => r.taskId === taskId);
        const rewards = mine.map((r) => r.reward);
        const m = mean(rewards);
        const sd = Math.sqrt(rewards.reduce((a, x) => a + (x - m) ** 2, 0) / (rewards.length - 1));
        // Generation 1's carried skill is s0 (its rollouts' mean); generation 2's the best of generation 1.
        const baseline =
          unit === 'g1'
            ? mean(s0.filter((t) => t.taskId === taskId).map((t) => t.reward))
            : Math.max(...g1.filter((r) => r.taskId === taskId).map((r) => r.reward));
        for (const row of mine) {
          const d = sd + 1e-6;
          const expected = (row.reward - m) / d + (sd === 0 ? 0 : (m - baseline) / d);
          expect(row.advantage, `${unit} ${taskId}`).toBeCloseTo(expected, 9);
          compared++;
        }
      }
    }
    expect(compared).toBe(g1.length + g2.length);
  });
});
