import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { listEstimators } from '@skillrl/advantage';
import { BUILTIN_ESTIMATOR_NAMES } from 'create-skillrl';
import { describe, expect, it } from 'vitest';
import { CLI, nodeSync as node, tempDir } from './support.js';

// Papercut: `create-skillrl estimator grpo` wrote a package whose estimator, registered under the package's
// name, `skillrl run` then refused (a package cannot replace a built-in). Every built-in name of the registry
// is refused by the create-skillrl bin before anything is written, with the argument and a free name.

const CREATE_SKILLRL = resolve(__dirname, '../node_modules/create-skillrl/dist/cli.js');

describe('create-skillrl estimator <a built-in name>', () => {
  it("create-skillrl's list is the registry's names", () => {
    expect([...BUILTIN_ESTIMATOR_NAMES].sort()).toEqual([...listEstimators()].sort());
  });

  it('every built-in name is refused (the create-skillrl bin; skillrl init is the same program)', () => {
    const dir = tempDir('builtin-estimator-name');
    for (const name of listEstimators()) {
      const r = node([CREATE_SKILLRL, 'estimator', name, '--json'], dir);
      expect(r.code, `${name}: ${r.out}${r.err}`).toBe(1);
      expect(JSON.parse(r.out).error).toMatchObject({
        argument: '<dir>',
        fix: `choose another folder name, or pass --name my-${name}`,
      });
      expect(existsSync(join(dir, name)), name).toBe(false);
    }
    const init = node([CLI, 'init', 'estimator', join(dir, 'pkg'), '--name', 'grpo'], dir);
    expect(init.code).toBe(1);
    expect(init.err).toContain('Invalid --name: "grpo" is the name of a built-in estimator');
    expect(init.err).toContain('pass --name my-grpo');
    const free = node([CREATE_SKILLRL, 'estimator', 'grpo', '--name', 'my-grpo'], dir);
    expect(free.code, free.err).toBe(0);
    expect(free.out).toContain('wrote estimator package my-grpo');
  });
});
