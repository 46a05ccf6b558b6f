// biome-ignore-all lint/suspicious/noExplicitAny: JSON rows read back from the CLI and bank.jsonl
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSkill } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import {
  evolveConfig,
  finish,
  internalizeConfig,
  jsonResult,
  startCli,
  tempDir,
  writeConfig,
} from './support.js';

// The skill bank through the CLI: a run's skills exported as Agent Skills folders with their provenance, a
// folder's utility measured with and without it (paired by task, with an interval), two versions compared.

const cli = async (args: string[]) => finish(startCli(args));
const bankOf = (dir: string) =>
  readFileSync(join(dir, 'bank.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);

describe('skillrl skills export | test | diff', () => {
  it("an evolve run measures its final skills' utility and writes every candidate as a folder; export carries it", async () => {
    const dir = tempDir('skills-evolve-own');
    const config = writeConfig(
      dir,
      evolveConfig(
        { name: 'own', tasks: { split: 'train', limit: 3 } },
        { generations: 2, finalEpisodes: 4 },
      ),
    );
    const run = await cli(['run', config, '--json']);
    expect(run.code, run.err).toBe(0);
    const runDir = join(dir, 'runs', 'own');
    // Every candidate of every generation is an Agent Skills folder the strict checker accepts.
    const runBank = bankOf(runDir);
    const candidates = runBank.filter((r) => r.candidate !== undefined);
    // 3 tasks × 2 generations × 3 candidates, less texts proposed twice for a task.
    expect(candidates.length).toBeGreaterThan(3 * 2);
    expect(candidates.length).toBeLessThanOrEqual(3 * 2 * 3);
    const losers = candidates.filter((r) => r.carried === false);
    expect(losers.length).toBeGreaterThan(0);
    for (const r of candidates.slice(0, 4)) {
      const folder = join(runDir, 'candidates', String(r.generation), r.task, String(r.candidate), r.name);
      const valid = await cli(['validate-skill', folder]);
      expect(valid.code, valid.err).toBe(0);
      // A candidate is revised from the skill its task carried into the generation.
      expect(runBank.some((p) => p.hash === r.parent && p.task === r.task && p.carried !== false)).toBe(true);
    }
    // Each generation's carried skill is one of its candidates (or the carried skill unchanged).
    for (const g of [1, 2]) {
      for (const task of new Set(candidates.map((r) => r.task))) {
        const carried = runBank.filter((r) => r.generation === g && r.task === task && r.carried === true);
        expect(carried.length).toBeLessThanOrEqual(1);
      }
    }
    // The final skills carry the run's own paired measurement: with and without, same tasks, an interval.
    const finals = runBank.filter((r) => r.final);
    expect(finals.length).toBeGreaterThan(0);
    for (const r of finals) {
      expect(r.utility).toMatchObject({ split: 'final', pairedBy: 'episode', pairs: 4, episodes: 8 });
      expect(r.utility.lo).toBeLessThanOrEqual(r.utility.gap);
      expect(r.utility.hi).toBeGreaterThanOrEqual(r.utility.gap);
    }
    const exported = await cli(['skills', 'export', runDir, '--to', join(dir, 'out'), '--json']);
    expect(exported.code, exported.err).toBe(0);
    for (const row of jsonResult(exported).exported) {
      expect(row.utility?.split).toBe('final');
      const skill = parseSkill(readFileSync(join(dir, 'out', row.folder, 'SKILL.md'), 'utf8'));
      expect(skill.metadata?.['skillrl-utility-ci95']).toMatch(/^-?\d\.\d{4} -?\d\.\d{4}$/);
      expect(skill.metadata?.['skillrl-utility-paired-by']).toBe('episode');
      expect((await cli(['validate-skill', join(dir, 'out', row.folder)])).code).toBe(0);
    }
    // The summary says the same, over tasks.
    const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8'));
    expect(summary.metrics.final_utility_pairs).toBe(3);
    expect(Number.isFinite(summary.metrics.final_utility_gap)).toBe(true);
  }, 180_000);

  it('an evolve run exports spec-valid folders with provenance; skills test measures their utility with an interval', async () => {
    const dir = tempDir('skills-evolve');
    const config = writeConfig(
      dir,
      evolveConfig({ name: 'bank', tasks: { split: 'train', limit: 3 } }, { generations: 2 }),
    );
    const run = await cli(['run', config, '--json']);
    expect(run.code, run.err).toBe(0);
    const runDir = join(dir, 'runs', 'bank');
    const out = join(dir, 'exported');
    const exported = await cli([
      'skills',
      'export',
      runDir,
      '--to',
      out,
      '--measure',
      '--limit',
      '24',
      '--json',
    ]);
    expect(exported.code, exported.err).toBe(0);
    const result = jsonResult(exported);
    expect(result.exported.length).toBeGreaterThan(0);
    for (const row of result.exported) {
      // The folder is the skill's name, and the strict checker accepts it.
      const valid = await cli(['validate-skill', join(out, row.folder)]);
      expect(valid.code, valid.err).toBe(0);
      const skill = parseSkill(readFileSync(join(out, row.folder, 'SKILL.md'), 'utf8'));
      expect(skill.metadata?.['skillrl-hash']).toBe(row.hash);
      expect(skill.metadata?.['skillrl-run']).toBe('bank');
      expect(Object.values(skill.metadata ?? {}).every((v) => typeof v === 'string')).toBe(true);
    }
    // The bank: every version, each parent one of the bank's versions, rewards with their episodes.
    // --measure: each exported skill's utility, paired by task with its interval, in the export's result.
    for (const row of result.exported) {
      expect(row.utility.pairs).toBeGreaterThan(1);
      expect(Number.isFinite(row.utility.lo) && Number.isFinite(row.utility.hi)).toBe(true);
    }
    const bank = bankOf(out);
    expect(bank.length).toBeGreaterThanOrEqual(result.exported.length);
    const hashes = new Set(bank.map((r) => r.hash));
    for (const r of bank.filter((r) => r.parent)) expect(hashes.has(r.parent)).toBe(true);
    expect(bank.some((r) => r.reward?.episodes > 0)).toBe(true);

    const tested = await cli(['skills', 'test', out, '--config', config, '--limit', '24', '--json']);
    expect(tested.code, tested.err).toBe(0);
    const measured = jsonResult(tested).skills;
    expect(measured.length).toBe(result.exported.length);
    for (const m of measured) {
      expect(m.utility.pairs).toBeGreaterThan(1);
      // The same tasks and seed: skills test reproduces the exported utility, inside its interval.
      const before = result.exported.find((r: Record<string, any>) => r.folder === m.name).utility;
      expect(m.utility.gap).toBeGreaterThanOrEqual(before.lo);
      expect(m.utility.gap).toBeLessThanOrEqual(before.hi);
      expect(m.utility.lo).toBeLessThanOrEqual(m.utility.gap);
      expect(m.utility.hi).toBeGreaterThanOrEqual(m.utility.gap);
      expect(m.utility.gap).toBeCloseTo(m.utility.withSkill - m.utility.withoutSkill, 10);
      const skill = parseSkill(readFileSync(join(out, m.name, 'SKILL.md'), 'utf8'));
      expect(skill.metadata?.['skillrl-utility-gap']).toBe(m.utility.gap.toFixed(4));
      // Its provenance from the export is kept beside the utility.
      expect(skill.metadata?.['skillrl-run']).toBe('bank');
    }
    expect(bankOf(out).some((r) => r.utility?.pairs > 1)).toBe(true);

    // Two versions compared: an exported skill against its parent, as the run kept it.
    const child = result.exported.find((r: Record<string, any>) => r.parent);
    expect(child).toBeDefined();
    const parent = bank.find((r) => r.hash === child.parent && r.task === child.task);
    const parentFile = join(
      runDir,
      'skills',
      String(parent?.generation),
      String(parent?.task),
      String(parent?.name),
    );
    expect(existsSync(parentFile), parentFile).toBe(true);
    const diff = await cli(['skills', 'diff', parentFile, join(out, child.folder), '--json']);
    expect(diff.code, diff.out).toBe(0);
    const d = jsonResult(diff);
    expect(d.same).toBe(false);
    expect(d.text).toContain('@@');
    expect(d.provenance).toContainEqual(['skillrl-parent', null, child.parent]);
  }, 180_000);

  it("an internalize run's exported skills carry the utility its last paired validation measured", async () => {
    const dir = tempDir('skills-internalize');
    const config = writeConfig(dir, internalizeConfig({ name: 'bank-skillc' }));
    const run = await cli(['run', config, '--json']);
    expect(run.code, run.err).toBe(0);
    const out = join(dir, 'exported');
    const exported = await cli(['skills', 'export', join(dir, 'runs', 'bank-skillc'), '--to', out, '--json']);
    expect(exported.code, exported.err).toBe(0);
    const rows = jsonResult(exported).exported;
    expect(rows.length).toBeGreaterThan(0);
    expect(
      rows.some((r: Record<string, any>) => r.utility?.pairs > 0 && /^v\d+$/.test(r.utility.split)),
    ).toBe(true);
  }, 180_000);

  it('an internalize run starts from an exported folder (skills: { dir }), its families from the config', async () => {
    const dir = tempDir('skills-from-folder');
    const source = writeConfig(dir, internalizeConfig({ name: 'source' }), 'source.yaml');
    expect((await cli(['run', source, '--json'])).code).toBe(0);
    const out = join(dir, 'bank');
    expect((await cli(['skills', 'export', join(dir, 'runs', 'source'), '--to', out, '--json'])).code).toBe(
      0,
    );
    const from = writeConfig(
      dir,
      internalizeConfig({ name: 'from-folder', skills: { dir: 'bank' } }),
      'from-folder.yaml',
    );
    const checked = await cli(['check', from]);
    expect(checked.code, checked.out + checked.err).toBe(0);
    const run = await cli(['run', from, '--json']);
    expect(run.code, run.err).toBe(0);
    // Its skills are the folder's: the run's starting skills carry the exported provenance.
    const started = join(dir, 'runs', 'from-folder', 'skills', '0');
    const names = existsSync(started) ? readdirSync(started) : [];
    expect(names.length).toBeGreaterThan(0);
    const first = parseSkill(readFileSync(join(started, names[0] as string, 'SKILL.md'), 'utf8'));
    expect(first.metadata?.['skillrl-run']).toBe('source');
    // The finished run wrote its bank, and its report shows it: each version with its utility.
    const runBank = bankOf(join(dir, 'runs', 'from-folder'));
    expect(runBank.length).toBeGreaterThan(0);
    const html = readFileSync(join(dir, 'runs', 'from-folder', 'report.html'), 'utf8');
    expect(html).toContain('id="bank"');
    for (const row of runBank) expect(html).toContain(row.hash);
    expect(runBank.some((r) => r.utility?.pairs > 0)).toBe(true);
    // eval of the same config runs its tasks with the folder's skills, each family with one.
    const evaluated = await cli(['eval', from, '--json']);
    expect(evaluated.code, evaluated.err).toBe(0);
    const families = jsonResult(evaluated).families as Record<string, any>[];
    expect(families.length).toBeGreaterThan(0);
    expect(families.every((f) => typeof f.withSkill === 'number')).toBe(true);
    // A family mapping naming a skill the folder lacks is named.
    const bad = writeConfig(
      dir,
      internalizeConfig({ name: 'bad', skills: { dir: 'bank', families: { 'no-such-skill': ['x'] } } }),
      'bad.yaml',
    );
    const refused = await cli(['run', bad]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('skills.families');
  }, 180_000);

  it('published-style skills (client fields) import with lenient and warnings, and are refused strictly', async () => {
    const published = join(__dirname, '../../core/test-fixtures/published-skills');
    const strictCheck = await cli(['validate-skill', join(published, 'code-review')]);
    expect(strictCheck.code).toBe(1);
    const lenientCheck = await cli(['validate-skill', join(published, 'code-review'), '--lenient']);
    expect(lenientCheck.code, lenientCheck.err).toBe(0);
    expect(lenientCheck.err).toContain('warning');
    const dir = tempDir('skills-published');
    const config = (lenient: boolean) =>
      writeConfig(
        dir,
        evolveConfig({
          name: `published-${lenient}`,
          skills: { dir: published, ...(lenient ? { lenient } : {}) },
        }),
        `published-${lenient}.yaml`,
      );
    const refused = await cli(['check', config(false)]);
    expect(refused.code).toBe(1);
    expect(refused.out + refused.err).toMatch(/unknown-field|not a known field/);
    const taken = await cli(['check', config(true)]);
    expect(taken.code, taken.out + taken.err).toBe(0);
  }, 60_000);

  it('bad input is named: not a run directory, an unknown generation', async () => {
    const dir = tempDir('skills-bad');
    const notRun = await cli(['skills', 'export', dir, '--to', join(dir, 'x')]);
    expect(notRun.code).toBe(1);
    expect(notRun.err).toContain('not a run directory');
    const bad = await cli(['skills', 'export', dir, '--to', join(dir, 'x'), '--generation', 'latest']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('--generation');
  });
});
