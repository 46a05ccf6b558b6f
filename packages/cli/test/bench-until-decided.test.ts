import { describe, expect, it } from 'vitest';
import { isDecided, untilDecided } from '../bench/until-decided.mjs';

// A watched difference whose interval narrows as seeds are added: decided once `at` seeds have run.
const narrowing = (label: string, at: number) => (n: number) => ({
  label,
  verdict: n >= at ? 'ahead' : 'tie',
  mean: 0.05,
  lo: n >= at ? 0.01 : -0.02,
  hi: 0.1,
});

describe("bench:paper's --until-decided loop", () => {
  it('adds one seed at a time until every watched difference is decided, and says each step', async () => {
    const grpo = narrowing('GRPO', 12);
    const skill0 = narrowing('SKILL0', 14);
    const started: number[] = [];
    const logged: number[] = [];
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const result = await untilDecided({
      seeds,
      maxSeeds: 20,
      differences: async (s) => [grpo(s.length), skill0(s.length)],
      addSeed: (seed) => started.push(seed),
      log: ({ next }) => logged.push(next),
    });
    // GRPO alone is decided at 12 seeds: the loop goes on for SKILL0, to 14.
    expect(started).toEqual([11, 12, 13, 14]);
    expect(logged).toEqual(started);
    expect(result.seeds).toBe(seeds);
    expect(seeds).toHaveLength(14);
    expect(result.decided).toBe(true);
    expect(result.differences.map((d) => d.verdict)).toEqual(['ahead', 'ahead']);
  });

  it('stops at the cap and reports what is still undecided as undecided', async () => {
    const started: number[] = [];
    const result = await untilDecided({
      seeds: [3, 7],
      maxSeeds: 5,
      differences: async (s) => [narrowing('GRPO', 99)(s.length)],
      addSeed: (seed) => started.push(seed),
    });
    // New seeds follow the largest one run, whatever the list.
    expect(started).toEqual([8, 9, 10]);
    expect(result.decided).toBe(false);
    expect(result.differences[0]?.verdict).toBe('tie');
  });

  it('adds nothing when the planned seeds already decide, and a behind verdict counts as decided', async () => {
    const started: number[] = [];
    const result = await untilDecided({
      seeds: [1, 2, 3],
      maxSeeds: 20,
      differences: async () => [{ label: 'GRPO', verdict: 'behind', mean: -0.1, lo: -0.2, hi: -0.01 }],
      addSeed: (seed) => started.push(seed),
    });
    expect(started).toEqual([]);
    expect(result.decided).toBe(true);
    expect(isDecided({ verdict: 'unknown' })).toBe(false);
  });
});
