import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gapCurve, gapsOf, retirementsOf } from '../bench/run-dynamics.mjs';
import { tempDir } from './support.js';

const rates = (withSkill: number, withoutSkill: number, episodes = 8) => ({
  withSkill,
  withoutSkill,
  withSkillEpisodes: episodes,
  withoutSkillEpisodes: episodes,
  episodes: 2 * episodes,
});

function validation(step: number, retired: string[], families: Record<string, ReturnType<typeof rates>>) {
  return { type: 'validation', step, validation: { step, families }, curriculum: { step, retired } };
}

describe('bench/run-dynamics', () => {
  it('reads the step each type retired at, and whether that validation was all-fail for it', () => {
    const dir = tempDir('dynamics');
    const events = [
      { type: 'run:start' },
      validation(0, [], { pick: rates(0.5, 0), heat: rates(0, 0) }),
      { type: 'step', step: 1 },
      // heat retires on 0/8 vs 0/8: no evidence. pick retires later on 4/8 vs 4/8.
      validation(10, ['heat'], { pick: rates(0.5, 0.25), heat: rates(0, 0) }),
      validation(20, ['heat', 'pick'], { pick: rates(0.5, 0.5), heat: rates(0, 0) }),
      validation(30, ['heat', 'pick'], { pick: rates(0.5, 0.5), heat: rates(0, 0) }),
    ];
    writeFileSync(join(dir, 'events.jsonl'), `${events.map((e) => JSON.stringify(e)).join('\n')}\n`);
    expect(retirementsOf(dir)).toEqual([
      { family: 'heat', step: 10, allFail: true },
      { family: 'pick', step: 20, allFail: false },
    ]);
  });

  it('takes the last / first gap ratio per run, and averages gaps by step over runs', () => {
    const a = {
      gapByStep: [
        { step: 0, gap: 0.4 },
        { step: 10, gap: 0.3 },
        { step: 20, gap: 0.1 },
      ],
    };
    // SKILL0's curve stops at its hard switch (no skill left: no gap).
    const b = {
      gapByStep: [
        { step: 0, gap: 0.2 },
        { step: 10, gap: 0.4 },
        { step: 20, gap: null },
      ],
    };
    expect(gapsOf(a).ratio).toBeCloseTo(0.25, 12);
    expect(gapsOf(b).ratio).toBeCloseTo(2, 12);
    expect(gapsOf(b).gaps.map((g) => g.step)).toEqual([0, 10]);
    // A first gap ≤ 0 has no ratio.
    expect(
      Number.isNaN(
        gapsOf({
          gapByStep: [
            { step: 0, gap: 0 },
            { step: 10, gap: 0.1 },
          ],
        }).ratio,
      ),
    ).toBe(true);
    const curve = gapCurve([a, b]);
    expect(curve.map((p) => [p.step, Number(p.gap.toFixed(12)), p.seeds])).toEqual([
      [0, 0.3, 2],
      [10, 0.35, 2],
      [20, 0.1, 1],
    ]);
  });
});
