import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { adapterScaffold, estimatorScaffold, scaffoldNextSteps, templatePath } from 'create-skillrl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPluginProject, type PluginProject } from '../../orchestrator/test/plugin-fixtures.js';
import { runCli } from '../src/create-cli.js';
import { CLI, tempDir, writeConfig } from './support.js';

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

let project: PluginProject;
beforeAll(() => {
  project = createPluginProject('cli');
  // A policy that passes only once it has been trained twice, and a trainer that trains it: `eval <run-dir>`
  // must evaluate the trained one. `persist: false` leaves it without state hooks (rebuilt by replay).
  writeFileSync(
    join(project.dir, 'learner.mjs'),
    `export function createLearningAgent(options = {}) {
  const state = { updates: 0 };
  const agent = {
    name: 'learner',
    async act() { return { action: state.updates >= (options.after ?? 2) ? 'ok' : 'no', logProb: 0 }; },
    learn() { state.updates++; },
  };
  if (options.persist === false) return agent;
  return { ...agent, toJSON: () => ({ ...state }), restore: (json) => { state.updates = json.updates; } };
}
export function createLearningTrainer(_options, ctx) {
  return { async update() { ctx.agent.learn(); return { updates: 1 }; } };
}
`,
  );
});
afterAll(() => rmSync(project.dir, { recursive: true, force: true }));

function config(overrides: Record<string, unknown> = {}, internalize: Record<string, unknown> = {}) {
  return {
    method: 'internalize',
    seed: 5,
    name: 'learner',
    adapter: { package: 'dual-adapter' },
    tasks: { split: 'train', limit: 4 },
    agent: { package: './learner.mjs', export: 'createLearningAgent' },
    concurrency: 2,
    internalize: {
      steps: 2,
      tasksPerStep: 2,
      groupSize: 2,
      validateEvery: 2,
      validation: { split: 'test', limit: 2 },
      trainer: { package: './learner.mjs', export: 'createLearningTrainer' },
      ...internalize,
    },
    ...overrides,
  };
}

describe('skillrl check: components resolved without running anything', () => {
  it('lists every component and where it resolved', async () => {
    const path = writeConfig(
      project.dir,
      config({ estimator: { package: 'esm-only-estimator' } }),
      'ok.yaml',
    );
    const r = await cli(['check', path]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/adapter\s+package:dual-adapter#default\s+file:.*dual-adapter\/dist\/index\.js/);
    expect(r.out).toMatch(/estimator\s+package:esm-only-estimator#zero-adv/);
    expect(r.out).toMatch(/internalize\.trainer\s+package:\.\/learner\.mjs#createLearningTrainer/);
    // Nothing ran: no run directory.
    expect(existsSync(join(project.dir, 'runs', 'learner'))).toBe(false);
  });

  it('an unknown adapter name fails listing the known names; a missing package names it', async () => {
    const unknown = await cli([
      'check',
      writeConfig(project.dir, config({ adapter: 'housework' }), 'u.yaml'),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain(
      'error: adapter: Unknown adapter "housework". Registered: household, shop, qa',
    );
    const missing = await cli([
      'check',
      writeConfig(project.dir, config({ agent: { package: '@acme/not-installed' } }), 'm.yaml'),
      '--json',
    ]);
    expect(missing.code).toBe(1);
    const json = JSON.parse(missing.out);
    expect(json.ok).toBe(false);
    const agent = json.components.find((c: { role: string }) => c.role === 'agent');
    expect(agent.error.code).toBe('SKILLRL_MISSING_PACKAGE');
    expect(agent.error.message).toContain('"@acme/not-installed"');
  });

  it('a wrong shape and an unknown estimator name are reported per component', async () => {
    const path = writeConfig(
      project.dir,
      config({ adapter: { package: 'wrong-shape' }, estimator: 'no-such-estimator' }),
      'w.yaml',
    );
    const r = await cli(['check', path]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      'error: adapter: adapter "wrong-shape": export "default" of "wrong-shape" is not a TaskAdapter: missing load()',
    );
    expect(r.err).toMatch(/error: estimator: Unknown estimator "no-such-estimator"\. Registered: .*grpo/);
  });

  it('warns when the validation can never retire a skill type, in words and in --json; exits 0', async () => {
    const base = {
      method: 'internalize',
      seed: 1,
      adapter: 'household',
      tasks: { split: 'train', limit: 16 },
      agent: 'skill-reading',
      internalize: {
        trainer: 'tfjs',
        steps: 20,
        validateEvery: 5,
        validation: { split: 'valid_seen', limit: 12 },
      },
    };
    const small = writeConfig(project.dir, base, 'small-validation.yaml');
    const r = await cli(['check', small]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /warning: internalize\.validation: no skill type can ever retire in this run \(all 6, 2 validation episodes a side each\); a type needs 19 validations/,
    );
    const json = JSON.parse((await cli(['check', small, '--json'])).out);
    expect(json.ok).toBe(true);
    expect(json.warnings).toHaveLength(1);
    // Enough validation: 48 tasks (8 a type and side), 60 steps every 10: no warning.
    const enough = writeConfig(
      project.dir,
      {
        ...base,
        internalize: {
          ...base.internalize,
          steps: 60,
          validateEvery: 10,
          validation: { split: 'valid_seen', limit: 48 },
        },
      },
      'enough-validation.yaml',
    );
    const ok = await cli(['check', enough]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.err).not.toMatch(/warning/);
  });

  it('the built CLI checks a tfjs config without loading tfjs', () => {
    const script = `
import { checkComponents, loadConfig } from ${JSON.stringify(resolve(__dirname, '../node_modules/@skillrl/orchestrator/dist/index.js'))};
import { createRequire } from 'node:module';
const checks = await checkComponents(loadConfig(${JSON.stringify(templatePath('household-skillc'))}));
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('@tensorflow'));
console.log(JSON.stringify({ errors: checks.filter((c) => c.error).length, roles: checks.map((c) => c.role), tfjs: loaded.length }));
`;
    const file = join(project.dir, 'check-tfjs.mjs');
    writeFileSync(file, script);
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      errors: 0,
      roles: ['method', 'adapter', 'agent', 'internalize.trainer'],
      tfjs: 0,
    });
  });
});

describe('skillrl validate-skill <folder | SKILL.md>', () => {
  const skill = (name: string) =>
    `---\nname: ${name}\ndescription: Heat an object, then place it. Use for heat tasks.\n---\n\n1. Heat it.\n`;

  it('a skill folder: ok when the name matches the folder, name-directory when it does not', async () => {
    const dir = tempDir('skill-folders');
    mkdirSync(join(dir, 'heat-things'));
    writeFileSync(join(dir, 'heat-things', 'SKILL.md'), skill('heat-things'));
    const ok = await cli(['validate-skill', join(dir, 'heat-things')]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.out).toContain('(heat-things)');
    mkdirSync(join(dir, 'heat'));
    writeFileSync(join(dir, 'heat', 'SKILL.md'), skill('heat-things'));
    for (const target of [join(dir, 'heat'), join(dir, 'heat', 'SKILL.md')]) {
      const bad = await cli(['validate-skill', target]);
      expect(bad.code).toBe(1);
      expect(bad.err).toContain('[name-directory] name: "heat-things" must match the name of the folder');
    }
  });

  it('a folder without SKILL.md is a clear error, not EISDIR (the built binary)', () => {
    const dir = tempDir('no-skill');
    const r = spawnSync(process.execPath, [CLI, 'validate-skill', dir], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('is a folder without a SKILL.md');
    expect(r.stderr).not.toContain('EISDIR');
  });
});

describe('skillrl eval <run-dir>: the trained policy of a finished internalize run', () => {
  it('evaluates the latest checkpoint’s agent (restored from its state) on a split, with and without skills', async () => {
    const path = writeConfig(project.dir, config({ name: 'trained' }), 'trained.yaml');
    expect((await cli(['run', path, '--json'])).code).toBe(0);
    const runDir = join(project.dir, 'runs', 'trained');
    const r = await cli(['eval', runDir, '--split', 'test', '--limit', '3', '--json']);
    expect(r.code, r.err).toBe(0);
    const result = JSON.parse(r.out);
    expect(result).toMatchObject({
      step: 2,
      restored: 'checkpoint',
      finished: true,
      tasks: { split: 'test', limit: 3 },
    });
    // Trained twice, the policy answers right with and without the skill; a fresh one (the config) never does.
    expect(result.overall).toEqual({ withSkill: 1, withoutSkill: 1, episodes: 6 });
    expect(result.families).toEqual([{ family: 'echo', withSkill: 1, withoutSkill: 1, episodes: 6 }]);
    const fresh = JSON.parse((await cli(['eval', path, '--split', 'test', '--limit', '3', '--json'])).out);
    expect(fresh.overall).toEqual({ withSkill: 0, withoutSkill: 0, episodes: 6 });
    const table = await cli(['eval', runDir, '--split', 'test', '--limit', '3']);
    expect(table.out).toContain('trained policy after step 2 (restored from its checkpoint), split test');
    expect(table.out).toMatch(/echo\s+100\.0%\s+100\.0%\s+0\.0\s+6/);
  });

  it('a policy without state hooks is rebuilt by replaying the updates; --split is required', async () => {
    const path = writeConfig(
      project.dir,
      config({
        name: 'replayed',
        agent: { package: './learner.mjs', export: 'createLearningAgent', options: { persist: false } },
      }),
      'replayed.yaml',
    );
    expect((await cli(['run', path, '--json'])).code).toBe(0);
    const runDir = join(project.dir, 'runs', 'replayed');
    const r = JSON.parse((await cli(['eval', runDir, '--split', 'test', '--json'])).out);
    expect(r).toMatchObject({ restored: 'replay', overall: { withoutSkill: 1 } });
    const noSplit = await cli(['eval', runDir]);
    expect(noSplit.code).toBe(2);
    expect(noSplit.err).toContain('a run directory needs --split <name>');
  });
});

describe('skillrl init', () => {
  it('init run writes a shipped config that checks; GAIA brings its sample data', async () => {
    const dir = tempDir('init-run');
    const r = await cli(['init', 'run', join(dir, 'skillc.yaml'), '--template', 'household-skillc']);
    expect(r.code, r.err).toBe(0);
    // The printed next steps run as printed, anywhere: install the CLI and what the config needs, then npx.
    expect(r.out).toMatch(
      /next: npm install @skillrl\/cli @skillrl\/task-household @skillrl\/policy-tfjs && npx skillrl check \S*skillc\.yaml && npx skillrl run \S*skillc\.yaml/,
    );
    expect(readFileSync(join(dir, 'skillc.yaml'), 'utf8')).toBe(
      readFileSync(resolve(__dirname, '../../../examples/household-skillc/skillc.yaml'), 'utf8'),
    );
    expect((await cli(['check', join(dir, 'skillc.yaml')])).code).toBe(0);
    expect((await cli(['init', 'run', join(dir, 'gaia.yaml'), '--template', 'gaia-openai'])).code).toBe(0);
    expect(existsSync(join(dir, 'data/validation/metadata.jsonl'))).toBe(true);
    expect((await cli(['check', join(dir, 'gaia.yaml')])).code).toBe(0);
    const unknown = await cli(['init', 'run', join(dir, 'x.yaml'), '--template', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain(
      'unknown template "nope"; the templates are household-skillc, household-skill-r1, shop, gaia-openai',
    );
    const again = await cli(['init', 'run', join(dir, 'skillc.yaml'), '--template', 'shop']);
    expect(again.err).toContain('exists; choose another file');
  });

  it('init adapter and init estimator are create-skillrl: the same files and next steps (content tests live there)', async () => {
    const dir = tempDir('init-pkg');
    for (const kind of ['adapter', 'estimator'] as const) {
      const target = join(dir, `my-${kind}`);
      const r = await cli(['init', kind, target, '--json']);
      expect(r.code, r.err).toBe(0);
      const result = JSON.parse(r.out);
      const files = kind === 'adapter' ? adapterScaffold(`my-${kind}`) : estimatorScaffold(`my-${kind}`);
      expect(result.files).toEqual(Object.keys(files));
      for (const [file, text] of Object.entries(files))
        expect(readFileSync(join(target, file), 'utf8')).toBe(text);
      expect(result.next).toBe(scaffoldNextSteps(kind, relative(process.cwd(), target)));
      // What the printed steps use is listed: `npx skillrl run run.yaml` runs the lean CLI, @skillrl/cli.
      const pkg = JSON.parse(files['package.json'] as string);
      expect(pkg.devDependencies['@skillrl/cli']).toBe('^0.1.0');
      expect(pkg.devDependencies.skillrl).toBeUndefined();
      const plain = await cli(['init', kind, join(dir, `plain-${kind}`)]);
      expect(plain.out).toContain(
        `next: ${scaffoldNextSteps(kind, relative(process.cwd(), join(dir, `plain-${kind}`)))}`,
      );
      const nonEmpty = await cli(['init', kind, target]);
      expect(nonEmpty.code).toBe(1);
      expect(nonEmpty.err).toContain('is not empty');
    }
    // Every argument after init goes to create-skillrl: its --list, its usage errors (exit 2).
    expect((await cli(['init', '--list'])).out).toContain('demo-skillc');
    expect((await cli(['init', 'adapter'])).code).toBe(2);
  });
});
