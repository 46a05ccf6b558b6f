import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupScores } from '@skillrl/core';
import { DEFAULT_CONFORMANCE_METRICS } from '@skillrl/testkit';
import { describe, expect, it } from 'vitest';

// What a README-built estimator must return is what the conformance kit requires: the README's metric table,
// the kit's list and core's groupScores (which a core-only estimator uses to compute them) name the same three.
describe("the orchestrator README's estimator metrics", () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
  const table = readme
    .slice(readme.indexOf('**What an estimator must return**'))
    .split('\n')
    .filter((line) => /^\| `[a-z_]+` \|/.test(line))
    .map((line) => /^\| `([a-z_]+)`/.exec(line)?.[1]);

  it('documents every metric the kit requires, and groupScores computes exactly those', () => {
    expect(table.slice(0, DEFAULT_CONFORMANCE_METRICS.length)).toEqual([...DEFAULT_CONFORMANCE_METRICS]);
    expect(Object.keys(groupScores([1, 0], ['a', 'a']).metrics).sort()).toEqual(
      [...DEFAULT_CONFORMANCE_METRICS].sort(),
    );
    expect(readme).toMatch(/with an `adv_` prefix/);
  });
});
