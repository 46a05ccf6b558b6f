import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TaskAdapter } from '@skillrl/core';
import { InvalidArgumentError, MissingPackageError, PluginShapeError, SkillrlError } from '@skillrl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interopNamespace, resolvePlugin } from '../src/components/import-package.js';
import { resolveComponent, resolveEstimator } from '../src/components/resolve-component.js';
import { createPluginProject, type PluginProject } from './plugin-fixtures.js';

let project: PluginProject;
beforeAll(() => {
  project = createPluginProject();
});
afterAll(() => rmSync(project.dir, { recursive: true, force: true }));

const ctx = () => ({ seed: 1, configPath: project.configPath });

async function adapterFrom(spec: Parameters<typeof resolveComponent>[1]): Promise<TaskAdapter> {
  return (await resolveComponent('adapter', spec, ctx())).value;
}

describe('plugin resolution, as Node’s ESM loader does it from the config’s folder', () => {
  it('an ESM-only package (exports with only an import condition) loads', async () => {
    const adapter = await adapterFrom({ package: 'esm-only-adapter' });
    expect(adapter.name).toBe('esm-only');
    expect(await adapter.load({ split: 'train', limit: 2 })).toHaveLength(2);
  });

  it('a CommonJS-only package (only a require condition) loads; module.exports is the default export', async () => {
    expect(resolvePlugin('cjs-only-adapter', project.configPath, 'adapter').via).toBe('require');
    expect((await adapterFrom({ package: 'cjs-only-adapter' })).name).toBe('cjs-only');
  });

  it('a dual package loads its ESM build, whose @skillrl/core is the orchestrator’s', async () => {
    const resolved = resolvePlugin('dual-adapter', project.configPath, 'adapter');
    expect(resolved.url).toMatch(/dual-adapter\/dist\/index\.js$/);
    expect((await adapterFrom({ package: 'dual-adapter' })).name).toBe('dual-esm');
  });

  it('a transpiled CommonJS default export (exports.default + __esModule) is unwrapped', async () => {
    const adapter = await adapterFrom({ package: 'transpiled-cjs-adapter' });
    expect(adapter.name).toBe('transpiled-cjs');
    expect(typeof adapter.load).toBe('function');
  });

  it('subpaths of a scoped package load (an adapter and an agent from one package)', async () => {
    expect((await adapterFrom({ package: '@acme/bench/adapter' })).name).toBe('acme-subpath');
    const agent = await resolveComponent('agent', { package: '@acme/bench/agent' }, ctx());
    expect(agent.source).toBe('package:@acme/bench/agent#default');
    expect(await agent.value.act({} as never)).toEqual({ action: 'ok' });
  });

  it('a named export (an object, or a factory called with the options) is used when the spec names it', async () => {
    expect((await adapterFrom({ package: 'named-exports', export: 'echoAdapter' })).name).toBe('named');
    const agent = await resolveComponent(
      'agent',
      { package: 'named-exports', export: 'createOkAgent', options: { name: 'mine' } },
      ctx(),
    );
    expect(agent.value.name).toBe('mine');
  });

  it('module paths relative to the config: a file, and a folder with a package.json', async () => {
    expect((await adapterFrom({ package: './local/adapter.mjs' })).name).toBe('local-file');
    expect((await adapterFrom({ package: './local-pkg' })).name).toBe('local-folder');
  });

  it('a wrong shape is a typed error naming the package, the export, what was expected and the exports', async () => {
    const error = await adapterFrom({ package: 'wrong-shape' }).catch((e: unknown) => e);
    expect(PluginShapeError.isInstance(error)).toBe(true);
    const e = error as PluginShapeError;
    expect(e.code).toBe('SKILLRL_PLUGIN_SHAPE');
    expect(e.packageName).toBe('wrong-shape');
    expect(e.exportName).toBe('default');
    expect(e.expected).toBe('TaskAdapter: missing load(), createEnvironment(), verifier()');
    expect(e.message).toContain('TaskAdapter: missing load()');
    expect(e.message).toContain('default (object with name, families)');
    expect(e.message).toContain('helper (function)');
    // A named export that does not exist lists what there is.
    const named = await adapterFrom({ package: 'named-exports', export: 'nope' }).catch((x: unknown) => x);
    expect(String((named as Error).message)).toMatch(
      /createOkAgent \(function\), echoAdapter \(object with name, .*\), version \(number\)/,
    );
  });

  it('a package that is not installed, or a path that does not exist, is a MissingPackageError', async () => {
    const missing = await adapterFrom({ package: 'not-installed-anywhere' }).catch((e: unknown) => e);
    expect(MissingPackageError.isInstance(missing)).toBe(true);
    expect(String((missing as Error).message)).toContain('npm install not-installed-anywhere');
    const path = await adapterFrom({ package: './nope.mjs' }).catch((e: unknown) => e);
    expect(MissingPackageError.isInstance(path)).toBe(true);
    expect(String((path as Error).message)).toMatch(/names the module "\.\/nope\.mjs".*Fix the path/);
  });

  it('a subpath the package does not export is named as such, not as a missing package', async () => {
    const error = await adapterFrom({ package: '@acme/bench/nope' }).catch((e: unknown) => e);
    expect(MissingPackageError.isInstance(error)).toBe(false);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(String((error as Error).message)).toContain(
      '"@acme/bench" is installed but exports no "@acme/bench/nope"',
    );
  });

  it('a plugin with its own nested copy of @skillrl/core: its typed errors are still recognised', async () => {
    const ok = await adapterFrom({ package: 'nested-core-adapter' });
    expect(ok.name).toBe('nested-core');
    const error = await adapterFrom({ package: 'nested-core-adapter', options: { size: 'big' } }).catch(
      (e: unknown) => e,
    );
    expect(error).not.toBeInstanceOf(InvalidArgumentError); // another copy's class…
    expect(InvalidArgumentError.isInstance(error)).toBe(true); // …recognised by its Symbol.for marker
    expect(SkillrlError.isInstance(error)).toBe(true);
  });

  it('an ESM-only estimator package is found and registered', async () => {
    const estimator = await resolveEstimator({ package: 'esm-only-estimator' }, project.configPath);
    expect(estimator.source).toBe('package:esm-only-estimator#zero-adv');
    const result = estimator.create().estimate({ scores: [1, 0], groupIds: [0, 0] } as never);
    expect(Array.from(result.advantages)).toEqual([0, 0]);
  });
});

describe('interopNamespace', () => {
  it('unwraps a transpiled module.exports, keeps an ES namespace and a plain CommonJS default', () => {
    const adapter = { load() {} };
    const transpiled = { default: { __esModule: true, default: adapter, other: 1 }, other: 1 };
    expect(interopNamespace(transpiled)).toEqual({ default: adapter, other: 1 });
    expect(interopNamespace({ default: adapter, x: 2 })).toEqual({ default: adapter, x: 2 });
  });
});

// The built orchestrator in plain Node (no vitest module runner), from both of its builds: the dual
// plugin's ESM build is loaded and sees the very @skillrl/core instance the ESM orchestrator uses.
describe('the built orchestrator resolves plugins in plain Node', () => {
  const dist = resolve(__dirname, '../dist');

  function node(script: string, file: string): { status: number | null; out: string; err: string } {
    const path = join(project.dir, file);
    writeFileSync(path, script);
    const r = spawnSync(process.execPath, [path], { cwd: project.dir, encoding: 'utf8', timeout: 60_000 });
    return { status: r.status, out: r.stdout, err: r.stderr };
  }

  it('ESM build: every fixture loads; the dual package sees the orchestrator’s core', () => {
    const r = node(
      `import { resolveComponent } from ${JSON.stringify(`${dist}/index.js`)};
import * as core from ${JSON.stringify(resolve(__dirname, '../../core/dist/index.js'))};
const ctx = { seed: 1, configPath: ${JSON.stringify(project.configPath)} };
const names = [];
for (const p of ['esm-only-adapter', 'cjs-only-adapter', 'dual-adapter', 'transpiled-cjs-adapter', '@acme/bench/adapter', './local/adapter.mjs', './local-pkg']) {
  names.push((await resolveComponent('adapter', { package: p }, ctx)).value.name);
}
const dual = await import('dual-adapter');
console.log(JSON.stringify({ names, sameCore: dual.coreSeen.createRng === core.createRng }));
`,
      'esm-check.mjs',
    );
    expect(r.err).toBe('');
    expect(JSON.parse(r.out)).toEqual({
      names: [
        'esm-only',
        'cjs-only',
        'dual-esm',
        'transpiled-cjs',
        'acme-subpath',
        'local-file',
        'local-folder',
      ],
      sameCore: true,
    });
  });

  it('CJS build (import-meta-resolve bundled into it): the same fixtures load', () => {
    const r = node(
      `const { resolveComponent } = require(${JSON.stringify(`${dist}/index.cjs`)});
(async () => {
  const ctx = { seed: 1, configPath: ${JSON.stringify(project.configPath)} };
  const names = [];
  for (const p of ['esm-only-adapter', 'cjs-only-adapter', 'dual-adapter', 'transpiled-cjs-adapter', '@acme/bench/adapter', './local-pkg']) {
    names.push((await resolveComponent('adapter', { package: p }, ctx)).value.name);
  }
  console.log(JSON.stringify(names));
})();
`,
      'cjs-check.cjs',
    );
    expect(r.err).toBe('');
    expect(JSON.parse(r.out)).toEqual([
      'esm-only',
      'cjs-only',
      'dual-esm',
      'transpiled-cjs',
      'acme-subpath',
      'local-folder',
    ]);
  });
});
