import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunEvent, Trajectory } from '@skillrl/core';
import { MissingPackageError, ValidationError } from '@skillrl/core';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/load-config.js';
import { runConfig } from '../src/run/run-config.js';
import { internalizeConfig, writeConfig } from './support.js';

// Configs live inside the package so that Node resolution from the config's directory finds the
// packages installed for it (here the example estimator, a dev dependency).
const BASE = resolve(__dirname, '../.test-runs');

afterAll(() => rmSync(BASE, { recursive: true, force: true }));

function localDir(prefix: string): string {
  const base = BASE;
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, `${prefix}-`));
}

describe('components named by package', () => {
  it('loads the custom estimator package by name from the config and uses it', async () => {
    const dir = localDir('custom-estimator');
    const config = internalizeConfig(
      { name: 'custom', estimator: { package: '@skillrl/example-custom-estimator', name: 'centered-rank' } },
      { variant: 'grpo', steps: 1, validateEvery: 1 },
    );
    const loaded = loadConfig(writeConfig(dir, config));
    const result = await runConfig(loaded);
    const manifest = JSON.parse(readFileSync(join(result.dir, 'run.json'), 'utf8'));
    expect(manifest.components.estimator).toBe('package:@skillrl/example-custom-estimator#centered-rank');
    const rollouts = new Map(
      readFileSync(join(result.dir, 'rollouts.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Trajectory)
        .map((t) => [t.id, t]),
    );
    const [record] = readFileSync(join(result.dir, 'advantages.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { rows: { trajectoryId: string; advantage: number }[] });
    // Centred ranks: within each task's group of 4 the advantages sum to 0 and lie in [−0.5, 0.5],
    // and a higher reward never gets a lower advantage.
    const byTask = new Map<string, { reward: number; advantage: number }[]>();
    for (const row of record?.rows ?? []) {
      const t = rollouts.get(row.trajectoryId) as Trajectory;
      const list = byTask.get(t.taskId) ?? [];
      list.push({ reward: t.reward, advantage: row.advantage });
      byTask.set(t.taskId, list);
    }
    expect(byTask.size).toBe(3);
    for (const list of byTask.values()) {
      expect(list.reduce((a, r) => a + r.advantage, 0)).toBeCloseTo(0, 12);
      for (const a of list)
        for (const b of list) if (a.reward > b.reward) expect(a.advantage).toBeGreaterThan(b.advantage);
      for (const r of list) expect(Math.abs(r.advantage)).toBeLessThanOrEqual(0.5);
    }
  });

  it("a package estimator gets the method's inputs in the batch: SKILLC's λ_k per sample (attributionStrengths)", async () => {
    // A third-party estimator installed in the config's node_modules, named by package: it records the
    // batch fields it received and returns zeros. No estimator gets special treatment by name, so it must
    // see exactly what the built-in skillc sees.
    const dir = localDir('strengths');
    const pkg = join(dir, 'node_modules', 'lambda-recorder');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({
        name: 'lambda-recorder',
        version: '1.0.0',
        type: 'module',
        exports: { '.': './index.js' },
      }),
    );
    const log = join(dir, 'batches.jsonl');
    writeFileSync(
      join(pkg, 'index.js'),
      `import { appendFileSync } from 'node:fs';
export const estimators = {
  'lambda-recorder': (options = {}) => ({
    name: 'lambda-recorder',
    estimate(batch) {
      if (options.log) appendFileSync(options.log, JSON.stringify({ strengths: Array.from(batch.attributionStrengths ?? []), families: Array.from(batch.families ?? []), conditions: Array.from(batch.conditions ?? []) }) + '\\n');
      return { advantages: new Float64Array(batch.scores.length), metrics: {} };
    },
  }),
};
`,
    );
    const config = internalizeConfig(
      { name: 'strengths', estimator: { package: 'lambda-recorder', options: { log } } },
      { variant: 'skillc', steps: 4, validateEvery: 2 },
    );
    const result = await runConfig(loadConfig(writeConfig(dir, config)));
    const batches = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { strengths: number[]; families: string[]; conditions: number[] });
    expect(batches).toHaveLength(4);
    const events = readFileSync(join(result.dir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as RunEvent);
    const stateAt = (step: number) => {
      const v = events.filter((e) => e.type === 'validation' && e.step < step).at(-1);
      return v?.type === 'validation' ? v.curriculum : undefined;
    };
    batches.forEach((batch, i) => {
      const state = stateAt(i + 1);
      expect(batch.strengths).toHaveLength(batch.families.length);
      batch.families.forEach((family, j) => {
        const expected = state?.active.includes(family) ? state.lambda[family] : 0;
        expect(batch.strengths[j]).toBe(expected);
      });
    });
    // Something to attribute: at least one step had a positive λ.
    expect(batches.some((b) => b.strengths.some((l) => l > 0))).toBe(true);
  });

  it('a package that is not installed fails before any rollout, naming the package', async () => {
    const dir = localDir('missing');
    const config = internalizeConfig({
      name: 'missing',
      estimator: { package: '@skillrl/not-installed-anywhere' },
    });
    const loaded = loadConfig(writeConfig(dir, config));
    const error = await runConfig(loaded).catch((e: unknown) => e);
    expect(MissingPackageError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toContain('@skillrl/not-installed-anywhere');
    expect(existsSync(join(dir, 'runs', 'missing', 'rollouts.jsonl'))).toBe(false);
  });

  it('an unknown registry name fails before any rollout, listing the known names', async () => {
    const dir = localDir('unknown');
    const config = internalizeConfig({ name: 'unknown', adapter: 'housework' });
    const error = await runConfig(loadConfig(writeConfig(dir, config))).catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(
      /Unknown adapter "housework". Registered: household, shop, qa/,
    );
    expect(existsSync(join(dir, 'runs', 'unknown'))).toBe(false);
    expect(ValidationError.isInstance(error)).toBe(false);
  });
});
