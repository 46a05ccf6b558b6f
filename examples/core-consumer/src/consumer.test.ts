import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const run = (file: string) =>
  JSON.parse(execFileSync(process.execPath, [join(import.meta.dirname, file)], { encoding: 'utf8' }));

describe('@skillrl/core from a consumer package', () => {
  it('resolves import to the ESM build and require to the CJS build', () => {
    const require = createRequire(import.meta.url);
    expect(require.resolve('@skillrl/core')).toMatch(/dist[/\\]index\.cjs$/);
    expect(import.meta.resolve('@skillrl/core')).toMatch(/dist\/index\.js$/);
  });

  it('works the same from import and from require', () => {
    const esm = run('esm-consumer.mjs');
    const cjs = run('cjs-consumer.cjs');
    expect(esm).toEqual({ format: 'esm', first: esm.first, name: 'demo', issues: 2 });
    expect(cjs).toEqual({ ...esm, format: 'cjs' });
    expect(esm.first).toBeGreaterThanOrEqual(0);
    expect(esm.first).toBeLessThan(1);
  });

  it('recognises an error thrown by the CJS copy with the ESM copy (two copies of the class)', async () => {
    const require = createRequire(import.meta.url);
    const cjs = require('@skillrl/core');
    const esm = await import('@skillrl/core');
    expect(cjs.ValidationError).not.toBe(esm.ValidationError);
    let thrown: unknown;
    try {
      cjs.validate('task', {});
    } catch (e) {
      thrown = e;
    }
    expect(thrown instanceof esm.ValidationError).toBe(false);
    expect(esm.ValidationError.isInstance(thrown)).toBe(true);
    expect(esm.SkillrlError.isInstance(thrown)).toBe(true);
  });

  it('ships type declarations for both module systems', () => {
    const require = createRequire(import.meta.url);
    const pkg = require('@skillrl/core/package.json');
    expect(pkg.exports['.'].import.types).toBe('./dist/index.d.ts');
    expect(pkg.exports['.'].require.types).toBe('./dist/index.d.cts');
    const dir = join(require.resolve('@skillrl/core'), '..');
    expect(() => require('node:fs').statSync(join(dir, 'index.d.ts'))).not.toThrow();
    expect(() => require('node:fs').statSync(join(dir, 'index.d.cts'))).not.toThrow();
  });
});
