import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finish, internalizeConfig, jsonResult, startCli, tempDir, writeConfig } from './support.js';

// Papercut: `skillrl eval <run-dir>` on the run's own test split seeded its episodes with `eval`, the run's
// held-out test with `test`, so it played other episodes and gave another number (41.7 % against 33.3 % on
// one case). On the run's test split it now plays the run's test episodes: the same success rates, family by
// family, as the run's summary.

const cli = (args: string[]) => finish(startCli(args));

describe("skillrl eval <run-dir> --split <the run's test split>", () => {
  it("reproduces the run's held-out test exactly, its testEpisodes included", async () => {
    const dir = tempDir('eval-reproduces-test');
    const config = internalizeConfig(
      { name: 'reproduced' },
      { steps: 2, validateEvery: 2, test: { split: 'valid_unseen', limit: 12 }, testEpisodes: 2 },
    );
    const run = await cli(['run', writeConfig(dir, config), '--json']);
    expect(run.code, run.err).toBe(0);
    const runDir = jsonResult(run).dir as string;
    const { metrics } = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as {
      metrics: Record<string, number>;
    };

    const evaluated = await cli(['eval', runDir, '--split', 'valid_unseen', '--json']);
    expect(evaluated.code, evaluated.err).toBe(0);
    const result = JSON.parse(evaluated.out);
    expect(result).toMatchObject({ seeds: 'test', tasksFrom: 'internalize.test', step: 2 });
    // 12 tasks × 2 sides × testEpisodes 2, as the run's test played them.
    expect(result.overall.episodes).toBe(48);
    const families = result.families as { family: string; withSkill: number; withoutSkill: number }[];
    expect(families.length).toBeGreaterThan(1);
    for (const f of families) {
      expect(f.withSkill, `${f.family} with`).toBe(metrics[`test_with_${f.family}`]);
      expect(f.withoutSkill, `${f.family} without`).toBe(metrics[`test_without_${f.family}`]);
    }
    // The run's headline numbers are the mean over families: the same from eval's rows.
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(families.map((f) => f.withSkill))).toBeCloseTo(metrics.test_success_with as number, 12);
    expect(mean(families.map((f) => f.withoutSkill))).toBeCloseTo(metrics.test_success_without as number, 12);
    // Something was measured: not every rate is 0 or 1 (a test that could not tell seeds apart).
    expect(families.some((f) => f.withoutSkill > 0 && f.withoutSkill < 1)).toBe(true);

    const table = await cli(['eval', runDir, '--split', 'valid_unseen']);
    expect(table.out).toContain("as the config's internalize.test), seeded as the run's own test");
    // Another split is an evaluation of its own, with its own seeds.
    const other = JSON.parse((await cli(['eval', runDir, '--split', 'valid_seen', '--json'])).out);
    expect(other.seeds).toBe('eval');
  }, 120_000);
});
