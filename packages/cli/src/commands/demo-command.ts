import { join } from 'node:path';
import type { Command } from 'commander';
import { CliExit } from '../cli-exit.js';
import type { CliIo, WithErrors } from '../cli-io.js';
import { demoNextLine, demoServeLine, demoUnitLine } from '../demo/demo-unit-line.js';
import { runDemo } from '../demo/run-demo.js';
import { interruptSignal } from '../interrupt-signal.js';
import { createProgressDisplay } from '../progress-bar.js';

/** `skillrl demo`: SKILLC beside its GRPO control, then Skill-R1, offline on household. */
export function addDemoCommand(program: Command, io: CliIo, withErrors: WithErrors): void {
  program
    .command('demo')
    .description(
      'offline demo: SKILLC beside a GRPO control, then Skill-R1, on household with in-process tfjs learners; writes every report',
    )
    .option('--out <dir>', 'folder for the demo runs', join('runs', 'demo'))
    .option('--quick', 'smaller runs (about a minute)')
    .option('--seed <n>', 'seed of both runs', '1')
    .option('--json', 'print the result as one JSON line, no progress bar')
    .action(
      withErrors(async (opts: { out: string; quick?: boolean; seed: string; json?: boolean }) => {
        const seed = Number(opts.seed);
        if (!Number.isSafeInteger(seed)) {
          io.err(`error: --seed expects an integer, got ${JSON.stringify(opts.seed)}`);
          throw new CliExit(1);
        }
        const bar = createProgressDisplay(!opts.json);
        const interrupt = interruptSignal();
        // Not a terminal (a log, CI, a pipe): no bar to watch, so a line per finished step or generation.
        const lines = !opts.json && !process.stdout.isTTY;
        const started = Date.now();
        try {
          const runs = await runDemo({
            out: opts.out,
            quick: Boolean(opts.quick),
            seed,
            signal: interrupt.signal,
            onProgress: (method, p) => bar.update({ ...p, phase: `${method}: ${p.phase}` }),
            ...(lines ? { onUnit: (unit) => io.out(demoUnitLine(unit, Date.now() - started)) } : {}),
            onWarning: (m) => io.err(`warning: ${m}`),
          });
          bar.stop();
          if (opts.json) {
            io.out(JSON.stringify({ ok: true, runs }));
            return;
          }
          const titles = {
            skillc: 'SKILLC (internalize)',
            'grpo-control': 'GRPO control (internalize, no skills; same tasks, budget, learner, seed)',
            'skill-r1': 'Skill-R1 (evolve)',
          } as const;
          for (const run of runs) {
            io.out(`${titles[run.role]}: ${run.dir}`);
            for (const line of run.highlights) io.out(`  ${line}`);
            io.out(`  report: ${run.report}`);
          }
          io.out(demoNextLine(runs.map((run) => run.dir)));
          io.out(demoServeLine(opts.out));
        } finally {
          bar.stop();
          interrupt.dispose();
        }
      }),
    );
}
