import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPluginProject, type PluginProject } from '../../orchestrator/test/plugin-fixtures.js';
import { CLI, tempDir, writeConfig } from './support.js';

// Estimator packages in every shape users publish, a package that registers through `require`, broken
// ones `check` must refuse as `run` does, and an adapter that takes options: all in the plugin project's
// node_modules (beside its adapters and agent.mjs), run through the built CLI.

const PACKAGES = resolve(__dirname, '../..');

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function pkg(dir: string, json: Record<string, unknown>, files: Record<string, string>): void {
  write(join(dir, 'package.json'), JSON.stringify({ version: '1.0.0', ...json }, null, 2));
  for (const [file, text] of Object.entries(files)) write(join(dir, file), text);
}

/** An estimator factory in plain JavaScript: every advantage is `value`, so a run shows which one ran. */
const constant = (name: string, value: number) =>
  `(options = {}) => ({ name: ${JSON.stringify(name)}, estimate: (batch) => ({ advantages: new Float64Array(batch.scores.length).fill(options.value ?? ${value}), metrics: {} }) })`;

let project: PluginProject;
beforeAll(() => {
  project = createPluginProject('deep-check');
  const nm = join(project.dir, 'node_modules');
  // The estimator registry, as the config's folder sees it (both builds: `require` picks the CJS one).
  symlinkSync(join(PACKAGES, 'advantage'), join(nm, '@skillrl', 'advantage'), 'dir');
  pkg(
    join(nm, 'esm-default-estimator'),
    { name: 'esm-default-estimator', type: 'module', exports: './index.js' },
    { 'index.js': `export default { estimators: { 'esm-default': ${constant('esm-default', 0.25)} } };\n` },
  );
  pkg(
    join(nm, 'cjs-inline-estimator'),
    { name: 'cjs-inline-estimator', main: './index.js' },
    { 'index.js': `module.exports = { estimators: { 'cjs-inline': ${constant('cjs-inline', 0.5)} } };\n` },
  );
  pkg(
    join(nm, 'tsc-default-estimator'),
    { name: 'tsc-default-estimator', main: './dist/index.js' },
    {
      'dist/index.js': `"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.default = { estimators: { 'tsc-default': ${constant('tsc-default', 0.75)} } };\n`,
    },
  );
  pkg(
    join(nm, 'named-estimators'),
    { name: 'named-estimators', type: 'module', exports: './index.js' },
    {
      'index.js': `export const estimators = { 'not-this': ${constant('not-this', 9)} };\nexport const fancy = { 'named-pick': ${constant('named-pick', 1.5)} };\nexport const createSingle = ${constant('single', 2)};\n`,
    },
  );
  // CommonJS only, registering itself on load through require('@skillrl/advantage'): the CJS build, while
  // the CLI runs the ESM one.
  pkg(
    join(nm, 'require-registered'),
    { name: 'require-registered', exports: { '.': { require: './index.cjs' } } },
    {
      'index.cjs': `const { registerEstimator } = require('@skillrl/advantage');\nregisterEstimator('required-adv', ${constant('required-adv', 1.25)});\nmodule.exports = {};\n`,
    },
  );
  pkg(
    join(nm, 'no-estimate'),
    { name: 'no-estimate', type: 'module', exports: './index.js' },
    { 'index.js': `export const estimators = { broken: () => ({ name: 'broken' }) };\n` },
  );
  pkg(
    join(nm, 'grpo-clash'),
    { name: 'grpo-clash', type: 'module', exports: './index.js' },
    { 'index.js': `export const estimators = { grpo: ${constant('grpo', 3)} };\n` },
  );
  // The adapter scaffold's shape: a ready default export beside the factory that takes options.
  const adapter = readFileSync(join(nm, 'esm-only-adapter', 'index.js'), 'utf8')
    .replace('export default {', 'export function createAdapter(options = {}) {\nreturn {')
    .replaceAll('"esm-only"', '(options.label ?? "unlabelled")')
    .replace(/};\n$/, '};\n}\nexport default createAdapter();\n');
  pkg(
    join(nm, 'options-adapter'),
    { name: 'options-adapter', type: 'module', exports: './index.js' },
    {
      'index.js': adapter,
    },
  );
  write(join(project.dir, 'trainer.mjs'), 'export default { async update() { return {}; } };\n');
});
afterAll(() => rmSync(project.dir, { recursive: true, force: true }));

function skillrl(args: string[], cli = CLI) {
  const r = spawnSync(process.execPath, [cli, ...args], {
    cwd: project.dir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

interface CheckJson {
  ok: boolean;
  error?: { issues: { path: string; message: string }[] };
  components: { role: string; source: string; error?: { code?: string; message: string } }[];
}

const checkJson = (path: string, cli = CLI) => {
  const r = skillrl(['check', path, '--json'], cli);
  return { code: r.code, json: JSON.parse(r.out) as CheckJson, err: r.err };
};

function internalize(name: string, overrides: Record<string, unknown>) {
  return {
    method: 'internalize',
    seed: 3,
    name,
    adapter: { package: 'dual-adapter' },
    tasks: { split: 'train', limit: 2 },
    agent: { package: './agent.mjs' },
    concurrency: 2,
    internalize: {
      variant: 'grpo',
      steps: 1,
      tasksPerStep: 2,
      groupSize: 2,
      validateEvery: 1,
      validation: { split: 'test', limit: 1 },
      trainer: { package: './trainer.mjs' },
    },
    ...overrides,
  };
}

function advantagesOf(runDir: string): number[] {
  return readFileSync(join(runDir, 'advantages.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((l) => (JSON.parse(l) as { rows: { advantage: number }[] }).rows.map((r) => r.advantage));
}

describe('estimator packages resolve like adapters, through check and run', () => {
  const shapes: [string, Record<string, unknown>, string, number][] = [
    ['ESM export default { estimators }', { package: 'esm-default-estimator' }, 'esm-default', 0.25],
    ['CJS module.exports = { estimators: { ... } }', { package: 'cjs-inline-estimator' }, 'cjs-inline', 0.5],
    ["tsc's exports.default = { estimators }", { package: 'tsc-default-estimator' }, 'tsc-default', 0.75],
    ['a named table chosen by export:', { package: 'named-estimators', export: 'fancy' }, 'named-pick', 1.5],
    [
      'one factory chosen by export:, under its name',
      { package: 'named-estimators', export: 'createSingle', name: 'single' },
      'single',
      2,
    ],
    [
      'a CJS package that registers through require, seen by the ESM run',
      { package: 'require-registered', name: 'required-adv' },
      'required-adv',
      1.25,
    ],
  ];
  for (const [title, estimator, name, value] of shapes) {
    it(title, () => {
      const path = writeConfig(project.dir, internalize(`shape-${name}`, { estimator }), `${name}.yaml`);
      const { code, json, err } = checkJson(path);
      expect(code, err + JSON.stringify(json)).toBe(0);
      expect(json.components.find((c) => c.role === 'estimator')?.source).toBe(
        `package:${estimator.package}#${name}`,
      );
      const run = skillrl(['run', path, '--json']);
      expect(run.code, run.err).toBe(0);
      const advantages = advantagesOf(join(project.dir, 'runs', `shape-${name}`));
      expect(advantages.length).toBeGreaterThan(0);
      expect(new Set(advantages)).toEqual(new Set([value]));
    });
  }

  it('a shape it cannot read says how to export one (and that export: works)', () => {
    const path = writeConfig(
      project.dir,
      internalize('no-table', { estimator: { package: 'named-estimators', export: 'nope' } }),
      'no-table.yaml',
    );
    const { code, json } = checkJson(path);
    expect(code).toBe(1);
    const error = json.components.find((c) => c.role === 'estimator')?.error;
    expect(error?.code).toBe('SKILLRL_PLUGIN_SHAPE');
    expect(error?.message).toContain('export "nope" of "named-estimators"');
    expect(error?.message).toContain('fancy (object with named-pick)');
    expect(error?.message).toContain('name the export to read with "export" in the config');
  });
});

describe('skillrl check refuses what run refuses', () => {
  const refused: [string, string, string, string][] = [
    [
      'an estimator factory that returns no estimate()',
      'no-estimate',
      'SKILLRL_PLUGIN_SHAPE',
      'AdvantageEstimator: missing estimate()',
    ],
    [
      'a package estimator named like a built-in (grpo)',
      'grpo-clash',
      'SKILLRL_INVALID_ARGUMENT',
      'estimator "grpo" of "grpo-clash": the name is taken by a different estimator',
    ],
  ];
  for (const [title, estimator, errorCode, message] of refused) {
    it(`${title}: check and run both fail, naming it`, () => {
      const path = writeConfig(
        project.dir,
        internalize(estimator, { estimator: { package: estimator } }),
        `${estimator}.yaml`,
      );
      const { code, json } = checkJson(path);
      expect(code).toBe(1);
      const error = json.components.find((c) => c.role === 'estimator')?.error;
      expect(error?.code).toBe(errorCode);
      expect(error?.message).toContain(message);
      const run = skillrl(['run', path]);
      expect(run.code).toBe(1);
      expect(run.err).toContain(message);
    });
  }

  it('three mistakes in one pass: a schema problem, a missing package, an unknown estimator', () => {
    const path = writeConfig(
      project.dir,
      internalize('three', {
        concurrency: 'four',
        agent: { package: 'not-installed-agent' },
        estimator: 'no-such-estimator',
      }),
      'three.yaml',
    );
    const { code, json } = checkJson(path);
    expect(code).toBe(1);
    expect(json.ok).toBe(false);
    expect(json.error?.issues.map((i) => i.path)).toEqual(['$.concurrency']);
    const errors = Object.fromEntries(
      json.components.filter((c) => c.error).map((c) => [c.role, c.error as { code?: string }]),
    );
    expect(Object.keys(errors).sort()).toEqual(['agent', 'estimator']);
    expect(errors.agent?.code).toBe('SKILLRL_MISSING_PACKAGE');
    expect(errors.estimator?.code).toBe('SKILLRL_UNKNOWN_NAME');
    // In words too: each on its own line.
    const text = skillrl(['check', path]);
    expect(text.err).toContain('$.concurrency:');
    expect(text.err).toMatch(/error: agent: .*"not-installed-agent"/);
    expect(text.err).toMatch(/error: estimator: Unknown estimator "no-such-estimator"/);
  });

  it('an installed package named as if built in: check and run say to write { package: <name> }', () => {
    const path = writeConfig(project.dir, internalize('bare', { adapter: 'dual-adapter' }), 'bare.yaml');
    const text = skillrl(['check', path]);
    expect(text.code).toBe(1);
    expect(text.err).toContain('Unknown adapter "dual-adapter"');
    expect(text.err).toContain(
      'A package "dual-adapter" is installed: to use it, write adapter: { package: dual-adapter }.',
    );
    const run = skillrl(['run', path]);
    expect(run.code).toBe(1);
    expect(run.err).toContain('write adapter: { package: dual-adapter }');
    // A name that is no package either: how a package is named at all.
    const other = writeConfig(project.dir, internalize('typo', { adapter: 'housework' }), 'typo.yaml');
    expect(skillrl(['check', other]).err).toContain('adapter: { package: <name or ./path> }');
  });
});

describe('adapter options reach the adapter', () => {
  it('a factory beside a ready default export gets the options, at check and in the run', () => {
    const path = writeConfig(
      project.dir,
      internalize('labelled', { adapter: { package: 'options-adapter', options: { label: 'mine' } } }),
      'labelled.yaml',
    );
    const { code, json, err } = checkJson(path);
    expect(code, err).toBe(0);
    expect(json.components.find((c) => c.role === 'adapter')?.source).toBe(
      'package:options-adapter#createAdapter',
    );
    expect(skillrl(['run', path, '--json']).code).toBe(0);
    const ids = readFileSync(join(project.dir, 'runs', 'labelled', 'rollouts.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { taskId: string }).taskId);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id.startsWith('mine/')).toBe(true);
  });

  it('options for an export that is a ready adapter (no factory) are an error, not dropped', () => {
    const path = writeConfig(
      project.dir,
      internalize('dropped', { adapter: { package: 'esm-only-adapter', options: { label: 'mine' } } }),
      'dropped.yaml',
    );
    const { code, json } = checkJson(path);
    expect(code).toBe(1);
    const error = json.components.find((c) => c.role === 'adapter')?.error;
    expect(error?.message).toContain('the config gives options (label), and a ready TaskAdapter takes none');
  });
});

/**
 * An LLM-only install: the CLI, the orchestrator and skill-generator (with tensor-ops) copied into a fresh
 * folder, their other dependencies linked from the workspace, and no @tensorflow/tfjs anywhere it can be found.
 */
function llmOnlyInstall(): { dir: string; cli: string } {
  const dir = tempDir('llm-only');
  const nm = join(dir, 'node_modules');
  const copy = (name: string, parts: string[]) => {
    for (const part of ['package.json', ...parts]) {
      cpSync(join(PACKAGES, name, part), join(nm, '@skillrl', name, part), { recursive: true });
    }
  };
  copy('cli', ['dist']);
  copy('orchestrator', ['dist']);
  copy('skill-generator', ['dist']);
  copy('tensor-ops', ['dist']);
  // Every other @skillrl package the CLI and the orchestrator depend on (read from their manifests, so a new
  // dependency is linked too), and the household adapter the config names.
  const linked = new Set(['task-household']);
  for (const name of ['cli', 'orchestrator']) {
    const { dependencies } = JSON.parse(readFileSync(join(PACKAGES, name, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const dep of Object.keys(dependencies)) if (dep.startsWith('@skillrl/')) linked.add(dep.slice(9));
  }
  for (const name of linked) {
    if (existsSync(join(nm, '@skillrl', name))) continue;
    symlinkSync(join(PACKAGES, name), join(nm, '@skillrl', name), 'dir');
  }
  // Every third-party dependency the published CLI and orchestrator declare, as npm would install it.
  for (const name of ['cli', 'orchestrator']) {
    const declared = JSON.parse(readFileSync(join(PACKAGES, name, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const dep of Object.keys(declared.dependencies).filter((d) => !d.startsWith('@skillrl/'))) {
      if (existsSync(join(nm, dep))) continue;
      mkdirSync(dirname(join(nm, dep)), { recursive: true });
      symlinkSync(realpathSync(join(PACKAGES, name, 'node_modules', dep)), join(nm, dep), 'dir');
    }
  }
  write(
    join(dir, 'agent.mjs'),
    "export default { name: 'looker', async act() { return { action: 'look' }; } };\n",
  );
  return { dir, cli: join(nm, '@skillrl', 'cli', 'dist', 'cli.js') };
}

describe('optional peers a component needs, on the current install', () => {
  it('generator: step-editor on an LLM-only install: check names @tensorflow/tfjs, as run does', () => {
    const install = llmOnlyInstall();
    try {
      const path = writeConfig(install.dir, {
        method: 'evolve',
        seed: 1,
        name: 'step',
        adapter: 'household',
        tasks: { split: 'train', limit: 1 },
        agent: { package: './agent.mjs' },
        evolve: { generator: 'step-editor', generations: 1, candidates: 1, episodes: 1 },
      });
      const { code, json, err } = checkJson(path, install.cli);
      expect(code, err).toBe(1);
      const errors = json.components.filter((c) => c.error);
      expect(errors.map((c) => c.role)).toEqual(['evolve.generator']);
      expect(errors[0]?.error?.code).toBe('SKILLRL_MISSING_PACKAGE');
      expect(errors[0]?.error?.message).toContain('needs the package "@tensorflow/tfjs"');
      expect(errors[0]?.error?.message).toContain('npm install @tensorflow/tfjs');
      const run = skillrl(['run', path], install.cli);
      expect(run.code).toBe(1);
      expect(run.err).toContain('"@tensorflow/tfjs"');
      // The same config with the LLM editor checks on this install.
      const llm = writeConfig(
        install.dir,
        {
          method: 'evolve',
          seed: 1,
          name: 'llm',
          adapter: 'household',
          tasks: { split: 'train', limit: 1 },
          agent: { package: './agent.mjs' },
          evolve: {
            generator: {
              name: 'llm-editor',
              options: { model: { model: 'm', baseURL: 'http://127.0.0.1:9/v1' } },
            },
          },
        },
        'llm.yaml',
      );
      const ok = checkJson(llm, install.cli);
      expect(ok.code, JSON.stringify(ok.json)).toBe(0);
    } finally {
      rmSync(install.dir, { recursive: true, force: true });
    }
  });

  it('with tfjs installed (the workspace), the same step-editor config checks', () => {
    const path = writeConfig(
      project.dir,
      {
        method: 'evolve',
        seed: 1,
        name: 'step-ok',
        adapter: 'household',
        tasks: { split: 'train', limit: 1 },
        agent: { package: './agent.mjs' },
        evolve: { generator: 'step-editor', generations: 1, candidates: 1, episodes: 1 },
      },
      'step-ok.yaml',
    );
    const { code, err, json } = checkJson(path);
    expect(code, err + JSON.stringify(json)).toBe(0);
  });
});
