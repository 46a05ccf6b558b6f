import { resolve } from 'node:path';
import { type ConfigOverride, resumeRun } from '@skillrl/orchestrator';
import type { Command } from 'commander';
import { CliExit } from '../cli-exit.js';
import type { CliIo, WithErrors } from '../cli-io.js';
import { EXIT_CODES } from '../exit-codes.js';
import { runWithSignals } from '../run-with-signals.js';
import { collectOverride } from './override-option.js';
import { printRunResult } from './print-run-result.js';

/** `skillrl resume <run-dir>`: from the latest checkpoint, `--set` changing only what cannot change results. */
export function addResumeCommand(program: Command, io: CliIo, withErrors: WithErrors): void {
  program
    .command('resume')
    .description(
      'continue an interrupted, cancelled or stopped run from its latest checkpoint; finished rollouts are reused (a completed run is left as it is)',
    )
    .argument('<run-dir>', 'the run directory')
    .option(
      '--set <path=value>',
      "change how the run reaches its endpoints before continuing, e.g. --set agent.options.baseURL=http://127.0.0.1:8000/v1 (repeatable; the value is JSON when it parses). Only what cannot change results: concurrency, health.…, store.…, and under a component's options (agent.options, evolve.generator.options.model, …) baseURL, baseURLs, apiKeyEnv, timeouts, retry, rate limits, concurrency; a model, sampling or prompt option is refused (exit 2): start a new run for those",
      collectOverride,
      [] as ConfigOverride[],
    )
    .option(
      '--drop-damaged',
      "move records the run cannot read back (a line that is not JSON, or not of its stream's shape; without this flag resume lists them and exits 1 before anything runs) into <run-dir>/damaged/<stream>.jsonl, exactly as they were with their file and line, then continue",
    )
    .option('--json', 'print the result as one JSON line, no progress bar')
    .action(
      withErrors(
        async (dir: string, opts: { json?: boolean; set: ConfigOverride[]; dropDamaged?: boolean }) => {
          const json = Boolean(opts.json);
          const code = await runWithSignals(
            io,
            json,
            resolve(dir),
            (run) =>
              resumeRun(dir, {
                ...run,
                ...(opts.set.length > 0 ? { set: opts.set } : {}),
                ...(opts.dropDamaged ? { dropDamaged: true } : {}),
                onWarning: (m) => io.err(`warning: ${m}`),
              }),
            (result) => printRunResult(io, json, result),
          );
          if (code !== EXIT_CODES.ok) throw new CliExit(code);
        },
      ),
    );
}
