import { describe, expect, it } from 'vitest';
import { demoNextLine, demoServeLine, demoUnitLabel, demoUnitLine } from './demo-unit-line.js';

describe("the demo's lines when its output is not a terminal", () => {
  it('names the unit a checkpoint closes: a step of internalize, a generation of evolve (0 is s0)', () => {
    expect(demoUnitLabel('internalize', 3, 360)).toBe('step 3/360');
    expect(demoUnitLabel('evolve', 1, 6)).toBe('generation 0 (s0)');
    expect(demoUnitLabel('evolve', 3, 6)).toBe('generation 2/6');
  });

  it('one line per unit: elapsed time, run, unit, rollouts, success so far', () => {
    const unit = { role: 'skillc', unit: 'step 3/360', done: 192, total: 23136, successRate: 0.125 } as const;
    expect(demoUnitLine(unit, 65_400)).toBe(
      '[1:05] skillc: step 3/360 done, 192/23136 rollouts, success so far 12.5 %',
    );
    // A run in a second process: its rollouts, no rate.
    expect(
      demoUnitLine({ role: 'grpo-control', unit: 'the whole run', done: 800, total: 800 }, 3_605_000),
    ).toBe('[60:05] grpo-control: the whole run done, 800/800 rollouts');
  });

  it('ends with the report command of the first run, paths relative when below the working directory', () => {
    expect(demoNextLine(['/w/runs/demo/a', '/w/runs/demo/b', '/elsewhere/c'], '/w')).toBe(
      'next: skillrl report runs/demo/a   # rebuilds its report.html and prints the path; the same for runs/demo/b and /elsewhere/c',
    );
  });
});

describe('demoServeLine', () => {
  it('names the runs folder as typed under the working directory, absolute elsewhere', () => {
    expect(demoServeLine('runs/demo', '/w')).toMatch(/^watch: skillrl serve runs\/demo {3}# /);
    expect(demoServeLine('/elsewhere/demo', '/w')).toMatch(/^watch: skillrl serve \/elsewhere\/demo /);
  });
});
