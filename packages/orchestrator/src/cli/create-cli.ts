import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, redactSecrets, ValidationError, type ValidationIssue } from '@skillrl/core';
import { writeReport } from '@skillrl/report';
import { Command, CommanderError } from 'commander';
import { runProgram } from 'create-skillrl';
import { type ConfigCheck, checkConfigFile, checkConfigValue } from '../components/check-components.js';
import { configSchema } from '../config/config-schema.js';
import type { RunConfig } from '../config/config-types.js';
import { loadConfig, parseConfig, readConfigFile } from '../config/load-config.js';
import { demoNextLine, demoUnitLine } from '../demo/demo-unit-line.js';
import { runDemo } from '../demo/run-demo.js';
import { type Evaluation, evaluate } from '../evaluate/evaluate.js';
import { evaluateRun, isRunDirectory } from '../evaluate/evaluate-run.js';
import { EvaluationHealthError } from '../evaluate/evaluation-health-error.js';
import { type EvaluationTasks, evaluationTasks } from '../evaluate/evaluation-tasks.js';
import { applyOverrides, type ConfigOverride, parseOverride } from '../run/config-overrides.js';
import { moveAside } from '../run/move-aside.js';
import { runDirectoryOf } from '../run/open-run.js';
import { resumeRun, runConfig } from '../run/run-config.js';
import type { RunResult } from '../run/run-types.js';
import { diffSkills, exportSkills, type SkillSelection, testSkills } from '../skills/index.js';
import { withCliTracing } from '../trace/cli-tracing.js';
import { checkWorkers } from '../workers/check-workers.js';
import { addWorkerCommand } from '../workers/worker-command.js';
import { CliExit } from './cli-exit.js';
import { type CliIo, defaultIo, type WithErrors } from './cli-io.js';
import { CLI_VERSION } from './cli-version.js';
import { describeError } from './describe-error.js';
import { EXIT_CODES } from './exit-codes.js';
import { addExportCommand } from './export-command.js';
import { formatTable, percent } from './format-table.js';
import { addInitCommand } from './init-command.js';
import { interruptSignal } from './interrupt-signal.js';
import { createProgressDisplay } from './progress-bar.js';
import { runWithSignals } from './run-with-signals.js';
import { validateSkillPath } from './validate-skill-path.js';

export type { CliIo, WithErrors };

export { CliExit };

async function checkWorkersOf(file: string): Promise<{ ok: boolean; message: string } | undefined> {
  const loaded = loadConfig(file);
  return loaded.config.workers ? checkWorkers(loaded.config, loaded.path) : undefined;
}

function printResult(io: CliIo, json: boolean, result: RunResult): void {
  // Every finished run gets its report.html (`skillrl report` rebuilds it); resuming a finished run writes
  // nothing, not even the report.
  const existing = join(result.dir, 'report.html');
  const report = result.alreadyCompleted && existsSync(existing) ? existing : writeReport(result.dir).path;
  if (json) {
    io.out(JSON.stringify({ ok: true, ...result, report }));
    return;
  }
  io.out(
    result.alreadyCompleted
      ? `run ${result.runId} had already completed: ${result.dir} (nothing was run or written)`
      : `run ${result.runId} completed: ${result.dir}`,
  );
  io.out(`report: ${report}`);
  io.out(`rollouts run ${result.ran}, reused from disk ${result.reused}`);
  const rows = Object.entries(result.metrics).map(([k, v]) => [
    k,
    Number.isInteger(v) ? String(v) : v.toFixed(4),
  ]);
  io.out(formatTable(['metric', 'value'], rows));
  if (result.metrics.policy_frozen === 1) {
    io.out(
      'no policy update happened: the trainer reports it does not update the policy in process; every validation, λ/ρ and retirement was decided against the frozen starting policy. Train elsewhere from `skillrl export <run-dir> --format trl|verl`.',
    );
  }
}

/** `--set path=value`, repeatable, checked as it is read (a malformed one is a usage error). */
function collectOverride(value: string, previous: ConfigOverride[]): ConfigOverride[] {
  return collect(value, previous, {});
}

/** `run --set`: any path, since a new run computes what its config says; the result is checked. */
function collectRunOverride(value: string, previous: ConfigOverride[]): ConfigOverride[] {
  return collect(value, previous, { anyPath: true });
}

function collect(
  value: string,
  previous: ConfigOverride[],
  options: { anyPath?: boolean },
): ConfigOverride[] {
  try {
    return [...previous, parseOverride(value, options)];
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) {
      throw new CommanderError(2, 'skillrl.set', error.message);
    }
    throw error;
  }
}

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

/** The `skillrl` program; `io` and `exitOverride` make it testable in-process. */
export function createCli(io: CliIo = defaultIo): Command {
  const program = new Command('skillrl')
    .description('Reinforcement learning over agent skills: Skill-R1 (evolve) and SKILLC (internalize).')
    .version(CLI_VERSION)
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  const withErrors: WithErrors =
    <A extends unknown[]>(fn: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      const command = args[args.length - 1] as Command;
      const json = Boolean((command.opts() as { json?: boolean }).json);
      try {
        await fn(...args);
      } catch (error) {
        if (error instanceof CliExit || error instanceof CommanderError) throw error;
        const d = describeError(error);
        if (json) io.out(JSON.stringify({ ok: false, error: d.json }));
        else io.err(`error: ${redactSecrets(d.message)}`);
        throw new CliExit(1);
      }
    };

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
            (result) => printResult(io, json, result),
          );
          if (code !== EXIT_CODES.ok) throw new CliExit(code);
        },
      ),
    );

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
            (result) => printResult(io, json, result),
          );
          if (code !== EXIT_CODES.ok) throw new CliExit(code);
        },
      ),
    );

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

  addExportCommand(program, io, withErrors);

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
        } finally {
          bar.stop();
          interrupt.dispose();
        }
      }),
    );

  program
    .command('report')
    .description(
      'rebuild report.html of a run directory (self-contained charts and tables; works on unfinished runs)',
    )
    .argument('<run-dir>', 'the run directory')
    .option('--json', 'print the path and the summary as JSON')
    .action(
      withErrors(async (dir: string, opts: { json?: boolean }) => {
        const written = writeReport(resolve(dir));
        if (opts.json) io.out(JSON.stringify({ ok: true, path: written.path, summary: written.summary }));
        else io.out(`report: ${written.path}`);
      }),
    );

  // The skill bank: export a run's skills as Agent Skills folders, measure a folder's utility, compare two.
  const skills = program
    .command('skills')
    .description("a run's skills as Agent Skills folders with provenance, and their measured utility");
  skills
    .command('export')
    .description(
      "write a run's skills as a folder any Agent Skills client loads (<to>/<name>/SKILL.md, provenance in metadata) and the bank's manifest (<to>/bank.jsonl: every version, its parent, reward and utility)",
    )
    .argument('<run-dir>', 'the run directory')
    .requiredOption('--to <dir>', 'the folder to write')
    .option(
      '--generation <which>',
      'final (default), best (by measured reward), or a generation number',
      'final',
    )
    .option(
      '--measure',
      "then measure each exported skill's utility on the run's config's tasks, as `skills test` does (into metadata and bank.jsonl)",
    )
    .option('--split <name>', "with --measure: the split (default: the config's tasks)")
    .option('--limit <n>', 'with --measure: tasks of the split')
    .option('--episodes <n>', 'with --measure: episodes per task and condition', '1')
    .option('--json', 'print the result as JSON')
    .action(
      withErrors(async (dir: string, opts: ExportOptions) => {
        const which = opts.generation;
        const generation: SkillSelection =
          which === 'best' || which === 'final' ? which : /^\d+$/.test(which) ? Number(which) : Number.NaN;
        if (Number.isNaN(generation)) {
          throw new InvalidArgumentError('--generation', `expected final, best or a number, got "${which}"`);
        }
        const result = exportSkills(resolve(dir), { to: opts.to, generation });
        if (opts.measure) {
          const measured = await testSkills(result.to, runConfigFile(resolve(dir)), measureOptions(opts));
          for (const row of result.exported) {
            const m = measured.skills.find((x) => x.name === row.folder);
            if (m?.utility) row.utility = m.utility;
          }
        }
        if (opts.json) {
          io.out(
            JSON.stringify({
              ok: true,
              to: result.to,
              exported: result.exported,
              versions: result.bank.length,
            }),
          );
          return;
        }
        for (const row of result.exported) {
          const reward = row.reward
            ? ` reward ${row.reward.mean.toFixed(3)} over ${row.reward.episodes} episodes`
            : '';
          const utility = row.utility
            ? `, utility ${row.utility.gap.toFixed(3)} [${row.utility.lo.toFixed(3)}, ${row.utility.hi.toFixed(3)}]`
            : '';
          io.out(`${row.folder}/SKILL.md  ${row.hash}${row.task ? ` (${row.task})` : ''}${reward}${utility}`);
        }
        io.out(
          `${result.exported.length} skill(s) in ${result.to}; bank.jsonl lists ${result.bank.length} version(s)`,
        );
      }),
    );
  skills
    .command('test')
    .description(
      "measure each skill of a folder on a config's tasks: with and without it, paired by task, with a 95 % interval; written into its SKILL.md metadata and the folder's bank.jsonl",
    )
    .argument('<dir>', 'an Agent Skills folder (a skill folder, or a folder of them)')
    .requiredOption(
      '--config <file>',
      'the config whose agent and tasks measure it (its health budget applies)',
    )
    .option('--split <name>', "the split to measure on (default: the config's tasks)")
    .option('--limit <n>', 'tasks of the split')
    .option('--episodes <n>', 'episodes per task and condition', '1')
    .option('--json', 'print the result as JSON')
    .action(
      withErrors(
        async (
          dir: string,
          opts: { config: string; split?: string; limit?: string; episodes: string; json?: boolean },
        ) => {
          const result = await testSkills(dir, opts.config, measureOptions(opts));
          if (opts.json) {
            io.out(JSON.stringify({ ok: true, ...result }));
            return;
          }
          for (const r of result.skills) {
            const u = r.utility;
            io.out(
              u
                ? `${r.name}: with ${u.withSkill.toFixed(3)}, without ${u.withoutSkill.toFixed(3)}, utility ${u.gap.toFixed(3)} [${u.lo.toFixed(3)}, ${u.hi.toFixed(3)}] (${u.pairs} tasks, ${u.episodes} episodes${u.errored ? `, ${u.errored} errored` : ''})`
                : `${r.name}: not measured (no task of ${r.families.join(', ') || 'its families'} scored in both conditions)`,
            );
          }
        },
      ),
    );
  skills
    .command('diff')
    .description(
      'two skills compared: their text as a unified diff, and their provenance (hash, parent, run, utility)',
    )
    .argument('<a>', 'a skill folder or SKILL.md')
    .argument('<b>', 'a skill folder or SKILL.md')
    .option('--json', 'print the result as JSON')
    .action(
      withErrors(async (a: string, b: string, opts: { json?: boolean }) => {
        const d = diffSkills(a, b);
        if (opts.json) {
          io.out(JSON.stringify({ ok: true, ...d }));
          return;
        }
        io.out(d.same ? 'same text' : d.text.trimEnd());
        for (const [field, x, y] of d.provenance) io.out(`${field}: ${x ?? '—'} → ${y ?? '—'}`);
      }),
    );

  program
    .command('validate-skill')
    .description(
      'check a skill (its folder, or a SKILL.md) against the Agent Skills rules, including that its name matches its folder; exits 1 naming each rule broken',
    )
    .argument('<path>', 'a skill folder (holding SKILL.md) or a SKILL.md file')
    .option('--json', 'print the result as JSON')
    .option(
      '--lenient',
      'accept what skills clients add beyond the spec (disable-model-invocation, argument-hint, version, any other field; missing referenced files) with warnings instead of errors',
    )
    .action(
      withErrors(async (target: string, opts: { json?: boolean; lenient?: boolean }) => {
        const { path, name, problems, warnings } = validateSkillPath(target, {
          lenient: opts.lenient === true,
        });
        if (opts.json) io.out(JSON.stringify({ ok: problems.length === 0, path, name, problems, warnings }));
        else if (problems.length === 0) io.out(`ok: ${path}${name ? ` (${name})` : ''}`);
        else {
          io.err(`invalid SKILL.md: ${path}`);
          for (const p of problems) io.err(`  [${p.rule}] ${p.field}: ${p.message}`);
        }
        for (const w of opts.json ? [] : warnings) io.err(`warning: ${w}`);
        if (problems.length > 0) throw new CliExit(1);
      }),
    );

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

  addInitCommand(program, io);
  addWorkerCommand(program, io, withErrors);

  program
    .command('schema')
    .description('print the JSON Schema of config files')
    .action(() => {
      io.out(JSON.stringify(configSchema, null, 2));
    });

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

interface ExportOptions {
  to: string;
  generation: string;
  measure?: boolean;
  split?: string;
  limit?: string;
  episodes: string;
  json?: boolean;
}

/** `--episodes`, `--limit`, `--split` of `skills test` and `skills export --measure`, checked. */
function measureOptions(opts: { split?: string; limit?: string; episodes: string }) {
  const episodes = Number(opts.episodes);
  if (!Number.isInteger(episodes) || episodes < 1) {
    throw new InvalidArgumentError('--episodes', `expected an integer >= 1, got "${opts.episodes}"`);
  }
  const limit = opts.limit === undefined ? undefined : Number(opts.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) {
    throw new InvalidArgumentError('--limit', `expected an integer >= 1, got "${opts.limit}"`);
  }
  return {
    episodes,
    ...(opts.split ? { split: opts.split } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
}

/** The config a run directory was started from (its manifest names it), else the copy it keeps. */
function runConfigFile(runDir: string): string {
  const manifest = join(runDir, 'run.json');
  if (existsSync(manifest)) {
    const { configPath } = JSON.parse(readFileSync(manifest, 'utf8')) as { configPath?: string };
    if (configPath && existsSync(configPath)) return configPath;
  }
  return join(runDir, 'config.json');
}

/**
 * Every problem a config check found, as one validation's issues: the config's own, then each component's
 * (by its option paths where its check gives them, else by its role).
 */
function problemsOf(checked: ConfigCheck): ValidationIssue[] {
  return [
    ...checked.issues,
    ...checked.components
      .filter((c) => c.error !== undefined)
      .flatMap((c) =>
        // A component's option check gives each problem by path: one line each.
        ValidationError.isInstance(c.error)
          ? c.error.issues
          : [{ path: c.role, message: describeError(c.error).message }],
      ),
  ];
}

/**
 * A config check's problems as `check` and `run` print them: the config's own issues, then each component's,
 * then what runs but will not do as it says (with problems: all of them at once, so one edit fixes each).
 */
function printConfigProblems(io: CliIo, checked: ConfigCheck): void {
  if (checked.issues.length > 0) {
    io.err(`error: ${redactSecrets(describeError(new ValidationError('config', checked.issues)).message)}`);
  }
  for (const c of checked.components.filter((x) => x.error !== undefined)) {
    io.err(`error: ${c.role}: ${redactSecrets(describeError(c.error).message)}`);
  }
  if (problemsOf(checked).length > 0) for (const w of checked.warnings) io.err(`warning: ${w}`);
}
