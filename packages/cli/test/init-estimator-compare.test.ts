import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, linkInstall, nodeSync as node, tempDir } from './support.js';

// The estimator scaffold's printed steps, as a user runs them after `npm install`: its tests, its build, one
// `npx skillrl run run.yaml`, then `npm run compare` — which must show the scaffold's estimator giving the same
// rollouts other advantages than grpo, on rewards that are not all 0.

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

describe('skillrl init estimator: its run shows the estimator changing the advantages against grpo', () => {
  it('tests, builds, runs run.yaml, and npm run compare finds other advantages than grpo on the same rollouts', () => {
    const dir = tempDir('init-estimator-compare');
    made.push(dir);
    const target = join(dir, 'my-est');
    const init = node([CLI, 'init', 'estimator', target, '--json'], dir);
    expect(init.code, init.err).toBe(0);
    expect(JSON.parse(init.out).next).toMatch(/ && npx skillrl run run\.yaml && npm run compare$/);
    linkInstall(target);
    const bin = (name: string, file: string) => join(target, 'node_modules', name, file);
    const test = node([bin('vitest', 'vitest.mjs'), 'run'], target);
    expect(test.code, `${test.out}\n${test.err}`).toBe(0);
    const build = node([bin('tsup', 'dist/cli-default.js')], target);
    expect(build.code, build.err).toBe(0);

    // `npx skillrl run run.yaml`: the scaffold's own CLI, @skillrl/cli's.
    const run = node([CLI, 'run', 'run.yaml', '--json'], target);
    expect(run.code, run.err).toBe(0);
    const result = JSON.parse(run.out.trim().split('\n').at(-1) as string);
    expect(result.status).toBe('completed');
    const manifest = JSON.parse(readFileSync(join(result.dir, 'run.json'), 'utf8'));
    expect(manifest.components.estimator).toMatch(/my-est/);

    // `npm run compare` is `node compare.mjs`; --json gives its figures.
    const compare = node(['compare.mjs', '--json'], target);
    expect(compare.code, compare.err).toBe(0);
    const figures = JSON.parse(compare.out.trim().split('\n').at(-1) as string);
    expect(figures.estimator).toBe('my-est');
    expect(figures.rollouts).toBe(16);
    // The task rewards something, and not everything: some groups have rewards that differ.
    expect(figures.rewarded).toBeGreaterThan(0);
    expect(figures.rewarded).toBeLessThan(figures.rollouts);
    // The same rollouts, other advantages: the group-mean baseline is GRPO without its division by the std.
    expect(figures.differ).toBeGreaterThan(0);
    expect(figures.meanAbs.grpo).toBeGreaterThan(figures.meanAbs['my-est'] * 1.5);
    const table = node(['compare.mjs'], target);
    expect(table.out).toMatch(/my-est gave \d+ of 16 rollouts another advantage than grpo/);
    expect(table.out).toMatch(/rewards [01 ]+ {2}my-est [-+\d. ]+ {2}grpo [-+\d. ]+/);
  }, 180_000);
});
