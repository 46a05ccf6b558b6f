import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support.js';

const PAPER = resolve(__dirname, '../bench/paper.mjs');

describe('bench:paper', () => {
  it('prints the Skill-R1 table from ordinary runs, and a second call reuses them', () => {
    const out = tempDir('paper');
    const args = [PAPER, '--quick', '--seeds', '1', '--only', 'skill-r1', '--out', out];
    const first = execFileSync(process.execPath, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const rows = [
      'No skill',
      'Vanilla GRPO',
      'Skill-R1 (inference)',
      'Skill-R1 (GRPO)',
      'Skill-R1 (GRPO, carried-skill baseline)',
      'Skill-R1 (GRPO, A_intra normalised)',
      'Skill-R1 (GRPO, both normalised)',
    ];
    for (const row of rows) {
      expect(first).toMatch(new RegExp(`\\| ${row.replace(/[()]/g, '\\$&')} +\\| \\d+\\.\\d ± 0\\.0 `));
    }
    expect(first).not.toContain('SKILLC on household');
    const results = JSON.parse(readFileSync(join(out, 'paper-results.json'), 'utf8'));
    expect(results.skillR1.map((r: { label: string }) => r.label)).toEqual(rows);
    // The option rows run the skill-r1 estimator with their options, the others its defaults.
    const estimatorOf = (slug: string) =>
      JSON.parse(readFileSync(join(out, 'configs', `skill-r1-${slug}-seed1.json`), 'utf8')).estimator;
    expect(estimatorOf('skill-r1-grpo')).toBeUndefined();
    expect(estimatorOf('skill-r1-grpo-carried-skill-baseline')).toEqual({
      name: 'skill-r1',
      options: { interBaseline: 'carried-skill' },
    });
    expect(estimatorOf('skill-r1-grpo-both-normalised')).toEqual({
      name: 'skill-r1',
      options: { normalizeIntra: true, normalizeInter: true },
    });
    // Each accuracy is the run's own fresh-episode success, read back from its summary.json.
    for (const row of results.skillR1) {
      const summary = JSON.parse(readFileSync(join(row.runs[0], 'summary.json'), 'utf8'));
      expect(row.accuracy).toEqual([summary.metrics.final_eval_success]);
    }
    const again = execFileSync(process.execPath, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Same table (the wall-time line aside): nothing ran twice.
    const table = (text: string) => text.split('\n').filter((l) => l.startsWith('|'));
    expect(table(again)).toEqual(table(first));

    // A run made with other settings is never mixed into the table.
    const stored = join(out, 'configs', 'skill-r1-no-skill-seed1.json');
    writeFileSync(stored, readFileSync(stored, 'utf8').replace('"finalEpisodes": 2', '"finalEpisodes": 3'));
    expect(() => execFileSync(process.execPath, args, { encoding: 'utf8', stdio: 'pipe' })).toThrow(
      /skill-r1-no-skill-seed1: .* holds this run with other settings/,
    );
  }, 120_000);

  it('names a bad option and its fix', () => {
    expect(() =>
      execFileSync(process.execPath, [PAPER, '--seeds', '1,x'], { encoding: 'utf8', stdio: 'pipe' }),
    ).toThrow(/--seeds: expected integers >= 0/);
    expect(() =>
      execFileSync(process.execPath, [PAPER, '--budget', 'huge'], { encoding: 'utf8', stdio: 'pipe' }),
    ).toThrow(/--budget: expected published, low or both/);
    // The shop table is dropped, and the refusal says why.
    expect(() =>
      execFileSync(process.execPath, [PAPER, '--only', 'shop'], { encoding: 'utf8', stdio: 'pipe' }),
    ).toThrow(/--only shop: .*no with\/without gap/);
  });
});
