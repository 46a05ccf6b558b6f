import { describe, expect, it } from 'vitest';
import { buildHarness } from './build-harness.js';
import { probeSandbox } from './probe-sandbox.js';
import { runSandboxed } from './run-sandboxed.js';

describe('runSandboxed', () => {
  it('caps CPU time with ulimit -t, so a runaway dies even when no parent timer kills it', async () => {
    const support = await probeSandbox(process.execPath);
    expect(typeof support.ulimit).toBe('boolean');
    if (!support.ulimit) return;
    const started = Date.now();
    // The wall-clock limit (30 s) is far away: only the 1 s CPU cap can stop this loop.
    const run = await runSandboxed(
      buildHarness('while (true) {}', [{ code: 'assert.ok(true);' }]),
      { timeoutMs: 30_000, heapMb: 64, addressSpaceMb: 1088, outputLimitBytes: 1 << 16, cpuSeconds: 1 },
      support,
      { nodePath: process.execPath, network: 'auto' },
    );
    expect(run.killedFor).toBeUndefined();
    expect(run.protections.cpuSeconds).toBe(1);
    expect(run.signal === 'SIGXCPU' || /sigprocmask unblock failed/.test(run.stderr)).toBe(true);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('runs a clean program to completion and reports each test on the nonce channel', async () => {
    const support = await probeSandbox(process.execPath);
    const run = await runSandboxed(
      buildHarness('const x = 2;', [{ code: 'assert.equal(x, 2);' }, { code: 'assert.equal(x, 3);' }]),
      { timeoutMs: 5000, heapMb: 64, addressSpaceMb: 1088, outputLimitBytes: 1 << 16, cpuSeconds: 20 },
      support,
      { nodePath: process.execPath, network: 'auto' },
    );
    expect(run.lines.map((l) => l.kind)).toEqual(['start', 'pass', 'fail', 'done']);
    expect(run.lines[2]).toMatchObject({ kind: 'fail', index: 1, code: 'ERR_ASSERTION' });
  });
});
