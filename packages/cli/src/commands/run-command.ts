import { ValidationError } from '@skillrl/core';
import {
  applyOverrides,
  type ConfigOverride,
  checkConfigValue,
  moveAside,
  parseConfig,
  type RunConfig,
  readConfigFile,
  runConfig,
  runDirectoryOf,
} from '@skillrl/orchestrator';
import type { Command } from 'commander';
import { CliExit } from '../cli-exit.js';
import type { CliIo, WithErrors } from '../cli-io.js';
import { EXIT_CODES } from '../exit-codes.js';
import { runWithSignals } from '../run-with-signals.js';
import { problemsOf } from './config-problems.js';
import { collectRunOverride } from './override-option.js';
import { printRunResult } from './print-run-result.js';

/** `skillrl run <config>`: every problem `check` finds refused at once, then the run, with its report. */
export function addRunCommand(program: Command, io: CliIo, withErrors: WithErrors): void {
  program
    .command('run')
    .description('run the evolve or internalize loop a config describes, writing its run directory')
    .argument('<config>', 'YAML or JSON config file')
    .option('--run-dir <dir>', 'run directory (default <config dir>/<runDir>/<name>)')
    .option(
      '--set <path=value>',
      'change the config before running, e.g. --set internalize.variant=grpo --set name=household-grpo for the control of a SKILLC config (repeatable; the value is JSON when it parses; the result is checked like the file)',
      collectRunOverride,
      [] as ConfigOverride[],
    )
    .option(
      '--fresh',
      'start a new run even where the run directory already holds one: the earlier directory is moved aside to <dir>.previous-N (never deleted); without it, a directory holding a run is refused (continue it with skillrl resume)',
    )
    .option('--json', 'print the result as one JSON line, no progress bar')
    .action(
      withErrors(
        async (
          file: string,
          opts: { runDir?: string; json?: boolean; fresh?: boolean; set: ConfigOverride[] },
        ) => {
          const read = readConfigFile(file);
          const value =
            opts.set.length > 0
              ? applyOverrides(read.value as RunConfig, opts.set, { anyPath: true }).config
              : read.value;
          // Every problem `skillrl check` finds, before anything starts: all of them at once, the same ones.
          // No probe: the run starts the program itself, and a probe's upstream call would be one more.
          const checked = await checkConfigValue(value, read.path, { probe: false });
          const problems = problemsOf(checked);
          if (problems.length > 0) {
            for (const w of checked.warnings) io.err(`warning: ${w}`);
            throw new ValidationError('config', problems);
          }
          const loaded = { path: read.path, config: parseConfig(value) };
          const json = Boolean(opts.json);
          const dir = runDirectoryOf(loaded.config, loaded.path, opts.runDir);
          // Moved only once the config has parsed: a typo in it must not cost the earlier run its place.
          const kept = opts.fresh ? moveAside(dir) : undefined;
          if (kept) io.err(`note: the earlier run directory ${dir} was moved to ${kept}`);
          const code = await runWithSignals(
            io,
            json,
            dir,
            (run) =>
              runConfig(loaded, {
                ...(opts.runDir ? { runDir: opts.runDir } : {}),
                ...run,
                onWarning: (m) => io.err(`warning: ${m}`),
              }),
            (result) => printRunResult(io, json, result),
          );
          if (code !== EXIT_CODES.ok) throw new CliExit(code);
        },
      ),
    );
}
