import { relative, resolve } from 'node:path';

/** Which of the demo's runs: SKILLC, its GRPO control (same protocol, no skills), Skill-R1. */
export type DemoRole = 'skillc' | 'grpo-control' | 'skill-r1';

/**
 * A unit of a demo run that finished: a training step (SKILLC, the control) or a generation (Skill-R1), or
 * the whole run when it ran in a second process (the control beside SKILLC), whose units are not seen here.
 */
export interface DemoUnit {
  role: DemoRole;
  /** What finished: `step 3/360`, `generation 2/6`, `generation 0 (s0)`, or `the whole run`. */
  unit: string;
  /** Rollouts of that run finished so far (reused ones included), and planned in all. */
  done: number;
  total: number;
  /** Success rate of those rollouts; absent for a run in a second process. */
  successRate?: number;
}

/** The unit a checkpoint closes: internalize checkpoints after step `completed`, evolve after generation `completed − 1`. */
export function demoUnitLabel(method: 'internalize' | 'evolve', completed: number, of: number): string {
  if (method === 'internalize') return `step ${completed}/${of}`;
  const generation = completed - 1;
  return generation === 0 ? 'generation 0 (s0)' : `generation ${generation}/${of}`;
}

const clock = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * One line per finished unit, for a demo whose output is not a terminal (a log, CI, a pipe), where the
 * progress bar is not drawn and the demo would otherwise print nothing for minutes:
 * `[1:05] skillc: step 3/360 done, 192/23136 rollouts, success so far 12.5 %`.
 */
export function demoUnitLine(unit: DemoUnit, elapsedMs: number): string {
  const success =
    unit.successRate === undefined ? '' : `, success so far ${(100 * unit.successRate).toFixed(1)} %`;
  return `[${clock(elapsedMs)}] ${unit.role}: ${unit.unit} done, ${unit.done}/${unit.total} rollouts${success}`;
}

/**
 * The demo's last line: the command that shows what it did — the SKILLC run's report, rebuilt and named by
 * `skillrl report`; the other runs' the same way. A run directory below the working directory is shown
 * relative to it.
 */
export function demoNextLine(dirs: readonly string[], cwd = process.cwd()): string {
  const shown = dirs.map((dir) => {
    const rel = relative(cwd, dir);
    return rel && !rel.startsWith('..') ? rel : dir;
  });
  const [first, ...others] = shown;
  return `next: skillrl report ${first}   # rebuilds its report.html and prints the path${others.length ? `; the same for ${others.join(' and ')}` : ''}`;
}

/**
 * The demo's last line: the `skillrl serve` command that shows what it just did (the three runs side by side,
 * their charts, the SKILLC run against its control paired by task, every trajectory), `out` as typed when
 * it is under the working directory.
 */
export function demoServeLine(out: string, cwd = process.cwd()): string {
  const rel = relative(cwd, resolve(cwd, out));
  const shown = rel && !rel.startsWith('..') ? rel : resolve(cwd, out);
  return `watch: skillrl serve ${shown}   # a local web app: the runs, their charts, SKILLC against its control, skills, trajectories`;
}
