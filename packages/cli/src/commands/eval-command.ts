import { redactSecrets } from '@skillrl/core';
import {
  type Evaluation,
  EvaluationHealthError,
  type EvaluationTasks,
  evaluate,
  evaluateRun,
  evaluationTasks,
  isRunDirectory,
} from '@skillrl/eval';
import { loadConfig } from '@skillrl/orchestrator';
import { type Command, CommanderError } from 'commander';
import { CliExit } from '../cli-exit.js';
import type { CliIo, WithErrors } from '../cli-io.js';
import { EXIT_CODES } from '../exit-codes.js';
import { formatTable, percent } from '../format-table.js';
import { createProgressDisplay } from '../progress-bar.js';

function positiveInteger(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new CommanderError(2, 'skillrl.integer', `${flag} expects an integer >= 1, got "${value}"`);
  }
  return n;
}

/**
 * Per-family success with and without skills (over the episodes that ended without an error), the gap,
 * and the episodes that ended in an error by condition, as the `eval` table.
 */
function evaluationTable(result: Evaluation): string {
  const gap = (w: number | null, wo: number | null) =>
    w === null || wo === null ? '—' : `${(100 * (w - wo)).toFixed(1)}`;
  const errors = (e: { withSkill: number; withoutSkill: number; total: number } | undefined) =>
    e === undefined || e.total === 0 ? '0' : `${e.total} (${e.withSkill} with, ${e.withoutSkill} without)`;
  const rows = result.families.map((f) => [
    f.family,
    percent(f.withSkill),
    percent(f.withoutSkill),
    gap(f.withSkill, f.withoutSkill),
    String(f.episodes),
    errors(result.errors.families.find((e) => e.family === f.family)),
  ]);
  const o = result.overall;
  rows.push([
    'all',
    percent(o.withSkill),
    percent(o.withoutSkill),
    gap(o.withSkill, o.withoutSkill),
    String(o.episodes),
    errors(result.errors),
  ]);
  return formatTable(['family', 'with skill', 'without', 'gap (pts)', 'episodes', 'errors'], rows);
}

/** `split valid_unseen (limit 4, as the config's internalize.test)`: the tasks evaluated, and why those. */
function describeTasks(
  tasks: { split: string; limit?: number },
  from: EvaluationTasks['from'],
  limit: number | undefined,
): string {
  const count =
    tasks.limit === undefined
      ? 'every task'
      : `limit ${tasks.limit}${limit !== undefined ? ' by --limit' : ''}`;
  const why =
    from === 'tasks.limit'
      ? `the config names this split nowhere${limit === undefined && tasks.limit !== undefined ? ', so its tasks.limit' : ''}`
      : `as the config's ${from}`;
  return `split ${tasks.split} (${count}, ${why})`;
}

/** `skillrl eval <config-or-run-dir>`: success with and without each family's skill, as a table. */
export function addEvalCommand(program: Command, io: CliIo, withErrors: WithErrors): void {
  program
    .command('eval')
    .description(
      "success with and without each family's skill, per family, and the episodes that ended in an error: a config's agent on its tasks, or a finished internalize run's trained policy on a split; exits 3 when errors are past the config's health budget",
    )
    .argument('<config-or-run-dir>', 'a YAML/JSON config file, or a run directory (its latest checkpoint)')
    .option(
      '--split <name>',
      "the split to evaluate on (a run directory needs one; a config's default: its tasks), with the limit and seed the config gives it",
    )
    .option(
      '--limit <n>',
      "tasks of the split (default: the config's limit for it: tasks.limit, internalize.test.limit, …)",
    )
    .option(
      '--episodes <n>',
      "episodes per task and condition (default 1; on a run's own test split, its testEpisodes)",
    )
    .option('--json', 'print the table as JSON')
    .action(
      withErrors(
        async (
          target: string,
          opts: { split?: string; limit?: string; episodes?: string; json?: boolean },
        ) => {
          const episodes =
            opts.episodes === undefined ? undefined : positiveInteger(opts.episodes, '--episodes');
          const limit = opts.limit === undefined ? undefined : positiveInteger(opts.limit, '--limit');
          const bar = createProgressDisplay(!opts.json);
          const onProgress = (p: Parameters<typeof bar.update>[0]) => bar.update(p);
          let result: Evaluation;
          let header: string;
          let extra: Record<string, unknown> = {};
          try {
            if (isRunDirectory(target)) {
              if (!opts.split) {
                throw new CommanderError(
                  2,
                  'skillrl.split',
                  'a run directory needs --split <name> (e.g. valid_unseen)',
                );
              }
              const run = await evaluateRun(target, {
                split: opts.split,
                ...(limit !== undefined ? { limit } : {}),
                ...(episodes !== undefined ? { episodes } : {}),
                onProgress,
                onWarning: (m) => io.err(`warning: ${m}`),
              });
              result = run;
              header = `${run.runDir}: ${run.policy}, ${describeTasks(run.tasks, run.tasksFrom, limit)}${run.seeds === 'test' ? ", seeded as the run's own test" : ''}`;
            } else {
              const loaded = loadConfig(target);
              const chosen = evaluationTasks(loaded.config, {
                ...(opts.split ? { split: opts.split } : {}),
                ...(limit !== undefined ? { limit } : {}),
              });
              result = await evaluate(loaded, { episodes: episodes ?? 1, onProgress, tasks: chosen.tasks });
              header = `${loaded.path}: the config's agent, ${describeTasks(chosen.tasks, chosen.from, limit)}`;
              extra = { tasks: chosen.tasks, tasksFrom: chosen.from };
            }
          } catch (error) {
            bar.stop();
            if (!EvaluationHealthError.isInstance(error)) throw error;
            // As a run stopped by its error budget: the message (or `{ ok: false, … }`), exit 3.
            if (opts.json) {
              io.out(
                JSON.stringify({
                  ok: false,
                  status: 'failed',
                  error: { code: error.code, message: error.message, ...error.details },
                }),
              );
            } else io.err(`error: ${redactSecrets(error.message)}`);
            throw new CliExit(EXIT_CODES.health);
          } finally {
            bar.stop();
          }
          if (opts.json) {
            io.out(JSON.stringify({ ok: true, ...extra, ...result }));
            return;
          }
          io.out(header);
          io.out(evaluationTable(result));
          const e = result.errors;
          if (e.total > 0) {
            io.out(
              `${e.total} of ${result.overall.episodes} episodes ended in an error (${e.withSkill} with the skill, ${e.withoutSkill} without)${e.common ? `; most common (${e.common.count}×): ${redactSecrets(e.common.error)}` : ''}. They are not results: the success rates count only the episodes that ended without one.`,
            );
          }
        },
      ),
    );
}
