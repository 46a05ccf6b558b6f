import { redactSecrets, ValidationError } from '@skillrl/core';
import { checkConfigFile, checkWorkers, loadConfig } from '@skillrl/orchestrator';
import type { Command } from 'commander';
import { CliExit } from '../cli-exit.js';
import type { CliIo, WithErrors } from '../cli-io.js';
import { describeError } from '../describe-error.js';
import { formatTable } from '../format-table.js';
import { printConfigProblems } from './config-problems.js';

async function checkWorkersOf(file: string): Promise<{ ok: boolean; message: string } | undefined> {
  const loaded = loadConfig(file);
  return loaded.config.workers ? checkWorkers(loaded.config, loaded.path) : undefined;
}

/** `skillrl check <config>`: every problem `run` would refuse, in one pass, without an episode. */
export function addCheckCommand(program: Command, io: CliIo, withErrors: WithErrors): void {
  program
    .command('check')
    .description(
      "validate a config without running episodes: its schema, then every component built as `run` builds it (registry names known, packages found from the config's folder with the peers they import, plugin factories called and their results of the right shape), every problem in one pass",
    )
    .argument('<config>', 'YAML or JSON config file')
    .option('--json', 'print the result as JSON')
    .action(
      withErrors(async (file: string, opts: { json?: boolean }) => {
        const checked = await checkConfigFile(file);
        const invalid = checked.issues.length > 0 ? new ValidationError('config', checked.issues) : undefined;
        const problems = checked.components.filter((c) => c.error !== undefined);
        // Rollout workers: Redis reachable and a worker listening (only when the config sets `workers`).
        const workers = invalid ? undefined : await checkWorkersOf(file);
        const ok = invalid === undefined && problems.length === 0 && workers?.ok !== false;
        if (opts.json) {
          io.out(
            JSON.stringify({
              ok,
              path: checked.path,
              method: checked.method,
              ...(invalid ? { error: describeError(invalid).json } : {}),
              components: checked.components.map((c) => ({
                role: c.role,
                source: c.source,
                ...(c.resolved ? { resolved: c.resolved } : {}),
                ...(c.error !== undefined ? { error: describeError(c.error).json } : {}),
              })),
              warnings: checked.warnings,
              ...(workers?.message ? { workers } : {}),
            }),
          );
        } else {
          printConfigProblems(io, checked);
          if (ok) {
            io.out(`ok: ${checked.path} (${checked.method})`);
            io.out(
              formatTable(
                ['component', 'source', 'resolved'],
                checked.components.map((c) => [c.role, c.source, c.resolved ?? '']),
              ),
            );
          }
          if (ok) for (const w of checked.warnings) io.err(`warning: ${w}`);
          if (workers?.message) {
            if (workers.ok) io.out(workers.message);
            else io.err(`error: ${redactSecrets(workers.message)}`);
          }
        }
        if (!ok) throw new CliExit(1);
      }),
    );
}
