import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * Real plugin packages on disk, the shapes users publish: ESM-only, CommonJS-only, dual (tsup's ESM + CJS),
 * a transpiled CommonJS default export, subpath exports, named exports, a wrong shape, module paths, and one
 * with its own nested copy of @skillrl/core. They live in a fresh folder outside the workspace, with
 * `node_modules/@skillrl/core` linked to the workspace's core (as npm would hoist it).
 */

const CORE = resolve(__dirname, '../../core');

/** A one-step task adapter in plain JavaScript: answer "ok" to pass. `name` tells which build loaded. */
function adapterObject(name: string): string {
  return `{
  name: ${JSON.stringify(name)},
  families: ['echo'],
  splits: ['train', 'test'],
  load({ split, limit = 4, seed = 0 }) {
    const rng = createRng(seed);
    return Array.from({ length: limit }, (_, i) => ({
      id: ${JSON.stringify(name)} + '/' + split + '/' + i + '/' + rng.int(1000),
      family: 'echo',
      split,
      prompt: 'Say ok.',
      answer: 'ok',
    }));
  },
  createEnvironment() {
    return {
      maxSteps: 1,
      reset: () => 'Say ok.',
      admissibleActions: () => ['ok', 'no'],
      step: (action) => ({ observation: 'done', reward: action === 'ok' ? 1 : 0, done: true, info: { ok: action === 'ok' } }),
    };
  },
  verifier() {
    return {
      name: 'echo',
      verify(_task, trajectory) {
        const ok = trajectory.steps.at(-1)?.reward === 1;
        return { score: ok ? 1 : 0, passed: ok };
      },
    };
  },
  skills: () => [{ name: 'echo-ok', description: 'Answer ok. Use for every echo task.', families: ['echo'], body: 'Say ok.\\n' }],
}`;
}

const AGENT = `{
  name: 'always-ok',
  async act() {
    return { action: 'ok' };
  },
}`;

export interface PluginProject {
  /** The folder holding node_modules and the config. */
  dir: string;
  /** A config file path inside it (packages resolve from its folder). */
  configPath: string;
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function pkgJson(dir: string, json: Record<string, unknown>): void {
  write(join(dir, 'package.json'), `${JSON.stringify({ version: '1.0.0', ...json }, null, 2)}\n`);
}

/** Writes every fixture package; returns the project folder. */
export function createPluginProject(prefix = 'plugins'): PluginProject {
  const dir = mkdtempSync(join(tmpdir(), `skillrl-${prefix}-`));
  const nm = join(dir, 'node_modules');
  mkdirSync(join(nm, '@skillrl'), { recursive: true });
  symlinkSync(CORE, join(nm, '@skillrl', 'core'), 'dir');

  // ESM only: `exports` with an `import` condition and nothing else.
  const esm = join(nm, 'esm-only-adapter');
  pkgJson(esm, { name: 'esm-only-adapter', type: 'module', exports: { '.': { import: './index.js' } } });
  write(
    join(esm, 'index.js'),
    `import { createRng } from '@skillrl/core';\nexport default ${adapterObject('esm-only')};\n`,
  );

  // CommonJS only: `module.exports = adapter`, reachable only under the `require` condition.
  const cjs = join(nm, 'cjs-only-adapter');
  pkgJson(cjs, { name: 'cjs-only-adapter', exports: { '.': { require: './index.cjs' } } });
  write(
    join(cjs, 'index.cjs'),
    `const { createRng } = require('@skillrl/core');\nmodule.exports = ${adapterObject('cjs-only')};\n`,
  );

  // Dual, as tsup builds it (examples/custom-adapter): the ESM build must win, and its core is the
  // orchestrator's core.
  const dual = join(nm, 'dual-adapter');
  pkgJson(dual, {
    name: 'dual-adapter',
    type: 'module',
    main: './dist/index.cjs',
    module: './dist/index.js',
    exports: {
      '.': { import: './dist/index.js', require: './dist/index.cjs' },
      './package.json': './package.json',
    },
  });
  write(
    join(dual, 'dist/index.js'),
    `import * as core from '@skillrl/core';\nconst { createRng } = core;\nexport const coreSeen = core;\nexport function createAdapter() { return ${adapterObject('dual-esm')}; }\nexport default createAdapter();\n`,
  );
  write(
    join(dual, 'dist/index.cjs'),
    `"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nconst { createRng } = require('@skillrl/core');\nfunction createAdapter() { return ${adapterObject('dual-cjs')}; }\nexports.createAdapter = createAdapter;\nexports.default = createAdapter();\n`,
  );

  // A transpiled CommonJS build alone (`exports.default` + `__esModule`): import() wraps module.exports in
  // `default`, which must be unwrapped.
  const transpiled = join(nm, 'transpiled-cjs-adapter');
  pkgJson(transpiled, { name: 'transpiled-cjs-adapter', main: './dist/index.js' });
  write(
    join(transpiled, 'dist/index.js'),
    `"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nconst { createRng } = require('@skillrl/core');\nexports.default = ${adapterObject('transpiled-cjs')};\n`,
  );

  // Subpaths: one package, an adapter and an agent under their own export paths.
  const multi = join(nm, '@acme', 'bench');
  pkgJson(multi, {
    name: '@acme/bench',
    type: 'module',
    exports: {
      './adapter': { import: './adapter.js' },
      './agent': { node: './agent.js' },
      './package.json': './package.json',
    },
  });
  write(
    join(multi, 'adapter.js'),
    `import { createRng } from '@skillrl/core';\nexport default ${adapterObject('acme-subpath')};\n`,
  );
  write(join(multi, 'agent.js'), `export default ${AGENT};\n`);

  // Named exports, a factory among them.
  const named = join(nm, 'named-exports');
  pkgJson(named, { name: 'named-exports', type: 'module', exports: './index.js' });
  write(
    join(named, 'index.js'),
    `import { createRng } from '@skillrl/core';\nexport const echoAdapter = ${adapterObject('named')};\nexport function createOkAgent(options = {}) { return { ...${AGENT}, name: options.name ?? 'always-ok' }; }\nexport const version = 3;\n`,
  );

  // The wrong shape: a default export that is no adapter.
  const wrong = join(nm, 'wrong-shape');
  pkgJson(wrong, { name: 'wrong-shape', type: 'module', exports: './index.js' });
  write(
    join(wrong, 'index.js'),
    `export default { name: 'half', families: ['echo'] };\nexport function helper() {}\n`,
  );

  // Its own nested copy of @skillrl/core (another install of it): its typed errors must still be known.
  const nested = join(nm, 'nested-core-adapter');
  pkgJson(nested, { name: 'nested-core-adapter', type: 'module', exports: './index.js' });
  const nestedCore = join(nested, 'node_modules', '@skillrl', 'core');
  mkdirSync(nestedCore, { recursive: true });
  cpSync(join(CORE, 'package.json'), join(nestedCore, 'package.json'));
  cpSync(join(CORE, 'dist'), join(nestedCore, 'dist'), { recursive: true });
  // Core's own dependencies (ajv, yaml), as that install would have them.
  symlinkSync(join(CORE, 'node_modules'), join(nestedCore, 'node_modules'), 'dir');
  write(
    join(nested, 'index.js'),
    `import * as core from '@skillrl/core';\nexport const coreSeen = core;\nexport function createAdapter(options = {}) {\n  if (options.size !== undefined && typeof options.size !== 'number') throw new core.InvalidArgumentError('adapter.options.size', 'expected a number');\n  const { createRng } = core;\n  return ${adapterObject('nested-core')};\n}\n`,
  );

  // Module paths next to the config: a file, and a folder that is a package.
  write(
    join(dir, 'local', 'adapter.mjs'),
    `import { createRng } from '@skillrl/core';\nexport default ${adapterObject('local-file')};\n`,
  );
  const folder = join(dir, 'local-pkg');
  pkgJson(folder, { name: 'local-pkg', type: 'module', main: 'lib/main.js' });
  write(
    join(folder, 'lib', 'main.js'),
    `import { createRng } from '@skillrl/core';\nexport default ${adapterObject('local-folder')};\n`,
  );
  write(join(dir, 'agent.mjs'), `export default ${AGENT};\n`);

  // An ESM-only estimator package found by a run config.
  const estimator = join(nm, 'esm-only-estimator');
  pkgJson(estimator, {
    name: 'esm-only-estimator',
    type: 'module',
    exports: { '.': { import: './index.js' } },
  });
  write(
    join(estimator, 'index.js'),
    `export const estimators = {\n  'zero-adv': () => ({ name: 'zero-adv', estimate: (batch) => ({ advantages: new Float64Array(batch.scores.length), metrics: {} }) }),\n};\n`,
  );

  return { dir, configPath: join(dir, 'config.yaml') };
}
