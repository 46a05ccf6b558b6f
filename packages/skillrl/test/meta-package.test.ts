import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const here = join(__dirname, '..');
const pkg = createRequire(import.meta.url)(join(here, 'package.json')) as {
  dependencies: Record<string, string>;
  bin: Record<string, string>;
};

describe('skillrl (the batteries-included package)', () => {
  it('depends on the orchestrator, the CLI and every part its configs can name, tfjs included', () => {
    for (const name of [
      '@skillrl/orchestrator',
      '@skillrl/cli',
      '@skillrl/eval',
      '@skillrl/export',
      '@skillrl/queue',
      '@skillrl/task-household',
      '@skillrl/task-shop',
      '@skillrl/task-qa',
      '@skillrl/policy-tfjs',
      '@skillrl/skill-generator',
      '@skillrl/tensor-ops',
      '@skillrl/trainer-tinker',
      '@tensorflow/tfjs',
      '@tensorflow/tfjs-backend-wasm',
    ]) {
      expect(pkg.dependencies[name], name).toBeDefined();
    }
  });

  it("its bin is @skillrl/cli's", () => {
    const r = spawnSync(process.execPath, [join(here, pkg.bin.skillrl as string), 'init', 'run', '--list'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('household-skillc');
  });

  it('re-exports the orchestrator, eval and the CLI from import and require', async () => {
    const esm = await import(join(here, 'index.js'));
    const cjs = createRequire(import.meta.url)(join(here, 'index.cjs'));
    expect(typeof esm.runConfig).toBe('function');
    expect(typeof cjs.runConfig).toBe('function');
    expect(typeof esm.checkComponents).toBe('function');
    // The export for external trainers (@skillrl/export), through the orchestrator's re-exports.
    expect(typeof esm.exportRun).toBe('function');
    expect(typeof cjs.exportRun).toBe('function');
    // Evaluation (@skillrl/eval), as before it had a package of its own.
    expect(typeof esm.evaluate).toBe('function');
    expect(typeof cjs.evaluateRun).toBe('function');
    expect(typeof esm.testSkills).toBe('function');
    expect(typeof cjs.EvaluationHealthError).toBe('function');
    // The CLI's (@skillrl/cli), as before it had a package of its own.
    expect(typeof esm.runCli).toBe('function');
    expect(typeof cjs.createCli).toBe('function');
  });
});
