import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRunStreamLines } from '@skillrl/core';
import { readRunTemplate } from 'create-skillrl';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../src/create-cli.js';
import { DEMO_TEMPLATES, demoConfigs } from '../src/demo/run-demo.js';
import { CLI, evolveConfig, internalizeConfig, tempDir, writeConfig } from './support.js';

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const GOOD_SKILL = `---\nname: heat-things\ndescription: Heat an object with the microwave, then place it.\n---\n\n1. take the object\n2. heat it with microwave 1\n`;

describe('skillrl CLI', () => {
  it('validate-skill: 0 for a valid SKILL.md, 1 naming the broken rule otherwise', async () => {
    const dir = tempDir('skills');
    const good = join(dir, 'good.md');
    writeFileSync(good, GOOD_SKILL);
    expect((await cli(['validate-skill', good])).code).toBe(0);
    const badName = join(dir, 'bad.md');
    writeFileSync(badName, GOOD_SKILL.replace('heat-things', 'Heat_Things'));
    const r = await cli(['validate-skill', badName]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('[name-charset] name');
    const noFront = join(dir, 'nofront.md');
    writeFileSync(noFront, '# just markdown\n');
    const j = await cli(['validate-skill', noFront, '--json']);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.out).problems[0].rule).toBe('frontmatter');
  });

  it('check and run list every config problem by path and exit 1 before any rollout', async () => {
    const dir = tempDir('badcfg');
    const path = writeConfig(dir, {
      method: 'evolve',
      seed: 1,
      adapter: 'household',
      tasks: {},
      agent: 'openai',
      oops: 1,
    });
    const r = await cli(['run', path]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('$.tasks.split: is required');
    expect(r.err).toContain('$.oops: is not a known field');
    expect(r.err).toContain('$.evolve.generator: is required');
    const j = await cli(['check', path, '--json']);
    expect(j.code).toBe(1);
    expect(JSON.parse(j.out).error.issues).toHaveLength(3);
  });

  it('demo runs SKILLC beside a GRPO control, then Skill-R1, offline: a line per unit when not a terminal, every report, and a second call re-reads the runs', async () => {
    // One demo run serves every check (the slowest suites share their runs): first as a user piping it sees it,
    // then again with --json, which re-reads the finished runs instead of running them.
    const out = tempDir('demo');
    const piped = await cli(['demo', '--quick', '--out', out]);
    expect(piped.code, piped.err).toBe(0);
    {
      const r = piped;
      const lines = r.out.trim().split('\n');
      const units = lines
        .filter((line) => / done, \d+\/\d+ rollouts/.test(line))
        .map((line) => line.replace(/^\[\d+:\d\d\] /, '').replace(/ done, .*/, ''));
      const steps = (role: string) => Array.from({ length: 10 }, (_, i) => `${role}: step ${i + 1}/10`);
      // SKILLC's steps as they finish, then the control's: beside SKILLC in a second process (the built CLI),
      // one line when it ends; in this process, its steps. Then Skill-R1's generations.
      const control = units.filter((line) => line.startsWith('grpo-control: '));
      expect([['grpo-control: the whole run'], steps('grpo-control')]).toContainEqual(control);
      expect(units).toEqual([
        ...steps('skillc'),
        ...control,
        'skill-r1: generation 0 (s0)',
        'skill-r1: generation 1/2',
        'skill-r1: generation 2/2',
      ]);
      expect(lines[0]).toMatch(
        /^\[0:\d\d\] skillc: step 1\/10 done, \d+\/\d+ rollouts, success so far [\d.]+ %$/,
      );
      // The summary follows the units, and the last line is the command that shows what the demo did.
      expect(lines.findIndex((line) => line.startsWith('SKILLC (internalize): '))).toBe(units.length);
      expect(lines.at(-2)).toBe(
        `next: skillrl report ${join(out, 'demo-internalize')}   # rebuilds its report.html and prints the path; the same for ${join(out, 'demo-control')} and ${join(out, 'demo-evolve')}`,
      );
      // Then the command that shows the three runs live in a browser (issue 37).
      expect(lines.at(-1)?.startsWith(`watch: skillrl serve ${out}   # `)).toBe(true);
    }
    const rolloutLines = (dir: string) => [...readRunStreamLines(dir, 'rollouts')].length;
    const firstCounts = ['demo-internalize', 'demo-control', 'demo-evolve'].map((d) =>
      rolloutLines(join(out, d)),
    );

    const r = await cli(['demo', '--quick', '--out', out, '--json']);
    expect(r.code).toBe(0);
    const { runs } = JSON.parse(r.out.split('\n').at(-1)!);
    expect(runs.map((run: { method: string }) => run.method)).toEqual([
      'internalize',
      'internalize',
      'evolve',
    ]);
    expect(runs.map((run: { role: string }) => run.role)).toEqual(['skillc', 'grpo-control', 'skill-r1']);
    // The control is GRPO without skills on the same held-out tasks, compared task by task.
    const control = runs[1];
    expect(control.metrics.test_success_with).toBeDefined();
    expect(control.comparison.tasks).toBe(12);
    expect(control.comparison.difference).toBeCloseTo(
      runs[0].metrics.test_success_without - control.metrics.test_success_without,
      12,
    );
    expect(control.highlights.join('\n')).toMatch(
      /SKILLC − GRPO without skills on the same 12 held-out tasks: [+−][\d.]+ points \(95 % interval [+−][\d.]+ to [+−][\d.]+, paired by task;.*— (a tie|SKILLC ahead|SKILLC behind)/,
    );
    for (const run of runs) {
      expect(readFileSync(run.report, 'utf8')).toContain('<canvas');
      // Either layout: rollouts.jsonl alone, or rotated into segments/.
      expect([...readRunStreamLines(run.dir, 'rollouts')].length).toBeGreaterThan(10);
    }
    expect(Object.keys(runs[0].metrics)).toContain('final_gap');
    expect(Object.keys(runs[0].metrics)).toContain('test_success_without');
    expect(Object.keys(runs[2].metrics)).toContain('final_eval_reward');
    expect(runs[0].highlights.join('\n')).toMatch(
      /validation success without skills: [\d.]+ % at step 0 → [\d.]+ % at step 10/,
    );
    expect(runs[0].highlights.join('\n')).toContain('validation success with skills:');
    // The control never reads a skill: it has no "with skills" side to print.
    expect(control.highlights.join('\n')).not.toContain('with skills:');
    expect(control.highlights.join('\n')).toMatch(/without skills \(it never reads one\)/);
    expect(runs[2].highlights[0]).toMatch(/^mean reward per generation .*: [\d.]+ % → [\d.]+ % → [\d.]+ %$/);
    // The runs are the shipped templates (demo-skillc, demo-grpo-control, demo-skill-r1) with the quick sizes.
    for (const [key, name] of Object.entries(DEMO_TEMPLATES)) {
      const written = JSON.parse(readFileSync(join(out, `${key}.json`), 'utf8'));
      expect(written).toEqual({
        ...demoConfigs({ quick: true })[key as keyof typeof DEMO_TEMPLATES],
        runDir: '.',
      });
      const template = parse(readRunTemplate(name));
      expect({
        ...written,
        runDir: undefined,
        internalize: undefined,
        evolve: undefined,
        tasks: undefined,
      }).toEqual({ ...template, internalize: undefined, evolve: undefined, tasks: undefined });
    }
    const before = runs.map((run: { dir: string }) => rolloutLines(run.dir));
    const earlierSummary = readFileSync(join(runs[2].dir, 'summary.json'), 'utf8');
    // The same demo again (the --json call above): the finished runs were re-read, not refused and not rerun.
    expect(before).toEqual(firstCounts);
    // Other settings for one run (its config on disk no longer matches what the demo would write): that
    // run is moved aside, never overwritten, and run again; the two unchanged runs are re-read. (Changing one
    // run's settings proves what `--seed 2` would prove for all three, at a third of the cost.)
    const evolvePath = join(out, 'evolve.json');
    writeFileSync(evolvePath, JSON.stringify({ ...JSON.parse(readFileSync(evolvePath, 'utf8')), seed: 2 }));
    const other = await cli(['demo', '--quick', '--out', out, '--json']);
    expect(other.code, other.err).toBe(0);
    const evolveName = demoConfigs({ quick: true }).evolve.name as string;
    // The earlier run, whole, beside the new one.
    expect(readFileSync(join(out, `${evolveName}.previous-1`, 'summary.json'), 'utf8')).toBe(earlierSummary);
    expect(rolloutLines(join(out, `${evolveName}.previous-1`))).toBe(before[2]);
    expect(existsSync(join(out, evolveName, 'summary.json'))).toBe(true);
    expect(existsSync(join(out, `${runs[0].dir.split('/').at(-1)}.previous-1`))).toBe(false);
    expect(runs.slice(0, 2).map((run: { dir: string }) => rolloutLines(run.dir))).toEqual(before.slice(0, 2));
    // --seed reaches every run's config.
    const seeded = demoConfigs({ quick: true, seed: 2 });
    expect([seeded.internalize.seed, seeded.control.seed, seeded.evolve.seed]).toEqual([2, 2, 2]);
    expect((await cli(['demo', '--seed', 'x'])).code).toBe(1);
  }, 240_000);

  it('run --set changes the config before running: the GRPO control of a SKILLC config', async () => {
    const dir = tempDir('run-set');
    const path = writeConfig(dir, internalizeConfig({ name: 'skillc' }, { steps: 2 }), 'skillc.yaml');
    const r = await cli([
      'run',
      path,
      '--set',
      'internalize.variant=grpo',
      '--set',
      'name=control',
      '--json',
    ]);
    expect(r.code, r.err).toBe(0);
    // The name moved the run directory; config.json records the changed config, so resume continues it.
    const runDir = join(dir, 'runs', 'control');
    expect(existsSync(join(dir, 'runs', 'skillc'))).toBe(false);
    const saved = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
    expect(saved.internalize.variant).toBe('grpo');
    const rollouts = readFileSync(join(runDir, 'rollouts.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; condition: number });
    expect(rollouts.filter((t) => t.id.startsWith('s')).every((t) => t.condition === 0)).toBe(true);
    // The changed config is checked like the file: a bad value names its path, nothing is created.
    const bad = await cli(['run', path, '--set', 'internalize.variant=nope', '--set', 'name=bad']);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/\$\.internalize\.variant/);
    expect(existsSync(join(dir, 'runs', 'bad'))).toBe(false);
    expect((await cli(['run', path, '--set', 'novalue'])).code).toBe(2);
  });

  it('usage errors exit 2', async () => {
    expect((await cli(['frobnicate'])).code).toBe(2);
    expect((await cli(['eval', 'x.yaml', '--episodes', '0'])).code).toBe(2);
    expect((await cli(['export', 'somewhere', '--format', 'csv'])).code).toBe(2);
  });

  it('eval prints with/without-skill success per family', async () => {
    const dir = tempDir('eval');
    const path = writeConfig(dir, internalizeConfig({ tasks: { split: 'train', limit: 6 } }));
    const table = await cli(['eval', path]);
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/family\s+with skill\s+without\s+gap \(pts\)\s+episodes/);
    const json = await cli(['eval', path, '--json', '--episodes', '2']);
    const result = JSON.parse(json.out);
    // 6 tasks × 2 conditions × 2 episodes
    expect(result.overall.episodes).toBe(24);
    expect(result.families.reduce((a: number, f: { episodes: number }) => a + f.episodes, 0)).toBe(24);
  });

  it('export writes (prompt, completion, log-probs, advantage) rows of the trained component', async () => {
    const dir = tempDir('export');
    const evo = writeConfig(dir, evolveConfig({ name: 'evo' }, { generations: 1 }), 'evo.yaml');
    const ran = await cli(['run', evo, '--json']);
    expect(ran.code).toBe(0);
    const run = join(dir, 'runs', 'evo');
    // A finished run carries its report; `report` rebuilds it from the run directory alone.
    const reportPath = join(run, 'report.html');
    expect(JSON.parse(ran.out.split('\n').at(-1)!).report).toBe(reportPath);
    const first = readFileSync(reportPath, 'utf8');
    expect(first).toContain('<canvas');
    expect(first).toContain('Skill-R1');
    const rebuilt = await cli(['report', run, '--json']);
    expect(rebuilt.code).toBe(0);
    expect(JSON.parse(rebuilt.out).summary.method).toBe('evolve');
    expect(readFileSync(reportPath, 'utf8')).toBe(first);
    expect((await cli(['report', join(dir, 'no-such-run')])).code).toBe(1);
    const r = await cli(['export', run, '--format', 'jsonl', '--json']);
    expect(r.code).toBe(0);
    // 2 tasks × 3 candidates, one row each
    expect(JSON.parse(r.out).rows).toBe(6);
    const rows = readFileSync(join(run, 'export.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows[0]).toMatchObject({
      completion: expect.stringContaining('1. '),
      advantage: expect.any(Number),
    });
    expect(Array.isArray(rows[0].logProbs)).toBe(true);

    const int = writeConfig(
      dir,
      internalizeConfig({ name: 'int' }, { steps: 1, validateEvery: 1 }),
      'int.yaml',
    );
    expect((await cli(['run', int, '--json'])).code).toBe(0);
    const intRun = join(dir, 'runs', 'int');
    const out = join(dir, 'int.jsonl');
    expect((await cli(['export', intRun, '--out', out])).code).toBe(0);
    const steps = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const rollouts = readFileSync(join(intRun, 'rollouts.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // One row per action of each training rollout (validation rollouts are not trained on).
    const trained = rollouts.filter((t: { id: string }) => t.id.startsWith('s1/'));
    expect(steps).toHaveLength(trained.reduce((a: number, t: { steps: unknown[] }) => a + t.steps.length, 0));
  });

  it('the built binary exits non-zero with a clear message on a missing config', () => {
    const r = spawnSync(process.execPath, [CLI, 'run', '/nonexistent/skillrl.yaml'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('cannot read /nonexistent/skillrl.yaml');
  });

  it("the orchestrator's example configs (create-skillrl's templates come from them) are valid", async () => {
    for (const file of ['evolve-household.yaml', 'internalize-household.yaml', 'evolve-llm.yaml']) {
      const r = await cli(['check', join(__dirname, '../../orchestrator/examples', file)]);
      expect(r.code, r.err).toBe(0);
    }
  });
});
