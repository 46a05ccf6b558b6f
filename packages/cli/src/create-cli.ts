import { Command } from 'commander';
import { runProgram } from 'create-skillrl';
import { CliExit } from './cli-exit.js';
import { type CliIo, defaultIo, type WithErrors } from './cli-io.js';
import { CLI_VERSION } from './cli-version.js';
import { addCheckCommand } from './commands/check-command.js';
import { addDemoCommand } from './commands/demo-command.js';
import { addEvalCommand } from './commands/eval-command.js';
import { addExportCommand } from './commands/export-command.js';
import { addInitCommand } from './commands/init-command.js';
import { addReportCommand } from './commands/report-command.js';
import { addResumeCommand } from './commands/resume-command.js';
import { addRunCommand } from './commands/run-command.js';
import { addSchemaCommand } from './commands/schema-command.js';
import { addServeCommand } from './commands/serve-command.js';
import { addSkillsCommand } from './commands/skills-command.js';
import { addValidateSkillCommand } from './commands/validate-skill-command.js';
import { addWorkerCommand } from './commands/worker-command.js';
import { describeError } from './describe-error.js';
import { withCliTracing } from './trace/cli-tracing.js';
import { withErrorsTo } from './with-errors.js';

export type { CliIo, WithErrors };

export { CliExit };

/**
 * The `skillrl` program; `io` and `exitOverride` make it testable in-process. Each command is its own
 * file (commands/); this wires them, in the order `skillrl --help` lists them.
 */
export function createCli(io: CliIo = defaultIo): Command {
  const program = new Command('skillrl')
    .description('Reinforcement learning over agent skills: Skill-R1 (evolve) and SKILLC (internalize).')
    .version(CLI_VERSION)
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
  const withErrors = withErrorsTo(io);

  addRunCommand(program, io, withErrors);
  addResumeCommand(program, io, withErrors);
  addEvalCommand(program, io, withErrors);
  addExportCommand(program, io, withErrors);
  addDemoCommand(program, io, withErrors);
  addReportCommand(program, io, withErrors);
  addServeCommand(program, io, withErrors);
  addSkillsCommand(program, io, withErrors);
  addValidateSkillCommand(program, io, withErrors);
  addCheckCommand(program, io, withErrors);
  addInitCommand(program, io);
  addWorkerCommand(program, io, withErrors);
  addSchemaCommand(program, io);
  return program;
}

/**
 * Runs the CLI and returns the exit status: 0 ok, 1 failure or bad input, 2 usage error, 3 a run stopped by
 * its health budget (errors, units with no learning signal) or by its queue (no worker, Redis lost), 130 /
 * 143 a run cancelled by SIGINT / SIGTERM (`EXIT_CODES`).
 */
export function runCli(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  // Traces for the commands that run episodes, when OTEL_EXPORTER_OTLP_ENDPOINT says where (trace/).
  return withCliTracing(argv, { warn: (m) => io.err(`warning: ${m}`) }, () => runCommand(argv, io));
}

function runCommand(argv: readonly string[], io: CliIo): Promise<number> {
  return runProgram(createCli(io), argv, io.err, (error) => describeError(error).message);
}
