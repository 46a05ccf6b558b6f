import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const BENCH = resolve(__dirname, '../bench/proposals.mjs');

describe('bench/proposals.mjs', () => {
  it('prints wall time against the ideal and the serial time, and whether the target is met', () => {
    const r = spawnSync(process.execPath, [BENCH], {
      encoding: 'utf8',
      env: { ...process.env, TASKS: '4', LATENCY_MS: '150' },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'One-generation evolve, 4 qa tasks × 4 candidates × 1 episode, fake server 150 ms',
    );
    // 3 rounds of 150 ms; 4 editor calls + 4 + 16 episodes, one after another.
    expect(r.stdout).toMatch(/\| proposals concurrent \| 16 \| \d+\.\d\d \| 0\.45 \| 3\.6 \|/);
    expect(r.stdout).toMatch(/\| one proposal at a time \| 16 \|/);
    // A shared machine may be slow: the line is checked, not the verdict.
    expect(r.stdout).toMatch(/target: wall ≤ 3× ideal with concurrency 16: (met|NOT met) \(\d+\.\d\d×\)/);
  }, 60_000);
});
