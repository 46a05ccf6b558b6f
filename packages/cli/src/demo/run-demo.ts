import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  InvalidArgumentError,
  type PairedDifference,
  pairedByTask,
  type RunEvent,
  readRunStreamLines,
  type TestOutcomes,
} from '@skillrl/core';
import {
  loadConfig,
  moveAside,
  type RunConfig,
  type RunProgress,
  type RunResult,
  resumeRun,
  runConfig,
} from '@skillrl/orchestrator';
import { writeReport } from '@skillrl/report';
import { templatePath } from 'create-skillrl';
import { type DemoRole, type DemoUnit, demoUnitLabel } from './demo-unit-line.js';

/**
 * Training steps of the demo's SKILLC run and its control (8 tasks × 8 rollouts each): the published
 * budget's 360 (≈ 23k rollouts), where the difference shows.
 */
export const DEMO_STEPS = 360;

export interface DemoOptions {
  /** Folder for the demo's configs and run directories (default `runs/demo`). */
  out?: string;
  /** Smaller runs (about a minute) for a first look or CI. */
  quick?: boolean;
  seed?: number;
  signal?: AbortSignal;
  onProgress?: (method: string, progress: RunProgress) => void;
  /**
   * Each unit as it finishes: a step of SKILLC (and of the control when it runs in this process), a
   * generation of Skill-R1; the control in a second process once, when it ends. What `skillrl demo` prints
   * a line for when its output is not a terminal.
   */
  onUnit?: (unit: DemoUnit) => void;
  onWarning?: (message: string) => void;
}

export type { DemoRole, DemoUnit } from './demo-unit-line.js';

export interface DemoRun {
  method: 'internalize' | 'evolve';
  role: DemoRole;
  dir: string;
  report: string;
  metrics: Record<string, number>;
  /** What changed over the run, in a few plain lines (the report has the charts). */
  highlights: string[];
  /** On the GRPO control: SKILLC − GRPO without skills on the same held-out tasks, paired by task. */
  comparison?: PairedDifference;
}

/** The demo's runs, by the key its files and results use. */
type DemoKey = 'internalize' | 'control' | 'evolve';

/**
 * The shipped run configs the demo runs (create-skillrl's templates: `skillrl init run <file> --template
 * demo-skillc` writes the same file), by run.
 */
export const DEMO_TEMPLATES: Readonly<Record<DemoKey, string>> = {
  internalize: 'demo-skillc',
  control: 'demo-grpo-control',
  evolve: 'demo-skill-r1',
};

/** `--quick`: smaller runs (about a minute), as changes to the templates' values (path → value). */
const QUICK: Readonly<Record<DemoKey, Readonly<Record<string, number>>>> = {
  internalize: {
    'internalize.steps': 10,
    'internalize.validateEvery': 5,
    'internalize.validation.limit': 12,
    'internalize.test.limit': 12,
  },
  control: {
    'internalize.steps': 10,
    'internalize.validateEvery': 5,
    'internalize.validation.limit': 12,
    'internalize.test.limit': 12,
  },
  evolve: {
    'tasks.limit': 3,
    'evolve.generations': 2,
    'evolve.candidates': 4,
    'evolve.episodes': 2,
    'evolve.finalEpisodes': 2,
  },
};

/** Sets a value the template has (its place in the file, so in the config's key order, is kept). */
function setInTemplate(config: RunConfig, template: string, path: string, value: number): void {
  const keys = path.split('.');
  const last = keys.pop() as string;
  let holder: unknown = config;
  for (const key of keys) holder = (holder as Record<string, unknown> | undefined)?.[key];
  if (holder === null || typeof holder !== 'object' || !(last in holder)) {
    throw new InvalidArgumentError(`the template ${template}`, `it has no ${path}, which the demo sets`);
  }
  (holder as Record<string, unknown>)[last] = value;
}

/**
 * The offline demo: SKILLC on household with the skill-reading tfjs agent, beside its control — plain GRPO
 * without skills, same tasks, budget, learner and seed — then Skill-R1 on household with that agent frozen
 * and the trainable step editor. No API key, no network; every run writes a report.
 *
 * The budget: SKILLC's claim (skill-free success above GRPO's) shows only near the published budget (SKILL0's
 * run: 16 tasks × 8 rollouts × 150–180 steps ≈ 19–23k rollouts); at a third of it the two tie (PAPERS.md,
 * "Budget"). The demo runs DEMO_STEPS steps × 8 tasks × 8 rollouts. The configs are the shipped templates
 * (`DEMO_TEMPLATES`), with the seed and, for `quick`, the smaller sizes put in.
 */
export function demoConfigs(options: { quick?: boolean; seed?: number } = {}): Record<DemoKey, RunConfig> {
  const seed = options.seed ?? 1;
  const configOf = (key: DemoKey): RunConfig => {
    const template = DEMO_TEMPLATES[key];
    const { config } = loadConfig(templatePath(template));
    const changes: Record<string, number> = { seed, ...(options.quick ? QUICK[key] : {}) };
    for (const [path, value] of Object.entries(changes)) setInTemplate(config, template, path, value);
    return config;
  };
  return { internalize: configOf('internalize'), control: configOf('control'), evolve: configOf('evolve') };
}

export async function runDemo(options: DemoOptions = {}): Promise<DemoRun[]> {
  const out = resolve(options.out ?? join('runs', 'demo'));
  mkdirSync(out, { recursive: true });
  const configs = demoConfigs(options);
  const roles = { internalize: 'skillc', control: 'grpo-control', evolve: 'skill-r1' } as const;
  type Key = DemoKey;
  // The latest progress of each run, for the units its checkpoints close.
  const latest: Partial<Record<Key, RunProgress>> = {};
  const unitOf = (key: Key, completed: number): DemoUnit => {
    const config = configs[key];
    const of = key === 'evolve' ? (config.evolve?.generations ?? 0) : (config.internalize?.steps ?? 0);
    const progress = latest[key];
    return {
      role: roles[key],
      unit: demoUnitLabel(key === 'evolve' ? 'evolve' : 'internalize', completed, of),
      done: progress?.done ?? 0,
      total: progress?.total ?? 0,
      successRate: progress?.successRate ?? 0,
    };
  };
  const runOptions = (key: Key) => ({
    ...(options.signal ? { signal: options.signal } : {}),
    onProgress: (p: RunProgress) => {
      latest[key] = p;
      options.onProgress?.(roles[key], p);
    },
    // A checkpoint closes each step and each generation.
    ...(options.onUnit
      ? {
          onEvent: (e: RunEvent) => {
            if (e.type === 'checkpoint') options.onUnit?.(unitOf(key, e.step));
          },
        }
      : {}),
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  });
  // Each run's config is written to disk, so its directory points at a real config file and `skillrl
  // resume` works. The same demo ran before: continue it (interrupted) or re-read it (finished); another
  // seed or size: the earlier run is kept beside, never overwritten.
  const prepare = (key: Key) => {
    const path = join(out, `${key}.json`);
    const text = `${JSON.stringify({ ...configs[key], runDir: '.' }, null, 2)}\n`;
    const runDir = join(out, configs[key].name as string);
    const previous = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    const resume = existsSync(join(runDir, 'run.json')) && previous === text;
    if (!resume) {
      const kept = moveAside(runDir);
      if (kept) options.onWarning?.(`an earlier demo run with other settings was moved to ${kept}`);
      writeFileSync(path, text);
    }
    return { path, runDir, resume };
  };
  const inProcess = (key: Key): Promise<RunResult> => {
    const { path, runDir, resume } = prepare(key);
    return resume
      ? resumeRun(runDir, runOptions(key))
      : runConfig(loadConfig(path), { ...runOptions(key), runDir });
  };
  // SKILLC and its control are independent runs of one JavaScript thread each: with the built CLI beside
  // this module the control runs in a second process, so two cores take the two at once.
  const cli = builtCli();
  // The child stops with the demo: on Ctrl-C, and when the SKILLC run fails.
  const stopChild = new AbortController();
  options.signal?.addEventListener('abort', () => stopChild.abort(), { once: true });
  const skillc = inProcess('internalize');
  const control = cli ? inChild(cli, prepare('control'), stopChild.signal) : undefined;
  // A control that fails while SKILLC still runs is reported once SKILLC is done, not as unhandled.
  control?.catch(() => undefined);
  const results: Record<Key, RunResult> = {} as Record<Key, RunResult>;
  try {
    results.internalize = await skillc;
  } catch (error) {
    stopChild.abort();
    await control?.catch(() => undefined);
    throw error;
  }
  results.control = control ? await control : await inProcess('control');
  if (control) {
    const rollouts = results.control.metrics.rollouts ?? 0;
    options.onUnit?.({ role: roles.control, unit: 'the whole run', done: rollouts, total: rollouts });
  }
  results.evolve = await inProcess('evolve');

  const runs: DemoRun[] = [];
  for (const key of ['internalize', 'control', 'evolve'] as const) {
    const result = results[key];
    const method = key === 'evolve' ? 'evolve' : 'internalize';
    const run: DemoRun = {
      method,
      role: roles[key],
      dir: result.dir,
      report: writeReport(result.dir).path,
      metrics: result.metrics,
      highlights: highlights(method, result.dir, result.metrics),
    };
    if (key === 'control') {
      const comparison = pairedByTask(testOutcomesOf(results.internalize.dir), testOutcomesOf(result.dir));
      if (comparison) {
        run.comparison = comparison;
        run.highlights.push(...comparisonLines(comparison));
      }
    }
    runs.push(run);
  }
  return runs;
}

/** The built CLI beside this module (dist/cli.js), or undefined when running from source. */
function builtCli(): string | undefined {
  const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
  const cli = join(dirname(here), 'cli.js');
  return here.endsWith('.ts') || !existsSync(cli) ? undefined : cli;
}

/** `skillrl run` (or `resume`) of a prepared demo config in a child process; its `--json` result. */
function inChild(
  cli: string,
  run: { path: string; runDir: string; resume: boolean },
  signal: AbortSignal | undefined,
): Promise<RunResult> {
  const args = run.resume
    ? ['resume', run.runDir, '--json']
    : ['run', run.path, '--run-dir', run.runDir, '--json'];
  return new Promise((done, fail) => {
    const child = execFile(
      process.execPath,
      [cli, ...args],
      { maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const last = stdout.trim().split('\n').at(-1) ?? '';
        let parsed: (RunResult & { ok?: boolean; error?: { message?: string } }) | undefined;
        try {
          parsed = JSON.parse(last) as typeof parsed;
        } catch {
          parsed = undefined;
        }
        if (!error && parsed?.ok) done(parsed);
        else
          fail(
            new Error(
              `the demo's GRPO control (${run.runDir}) failed: ${parsed?.error?.message ?? (stderr.trim() || error?.message)}; \`skillrl resume ${run.runDir}\` continues it`,
            ),
          );
      },
    );
    // Ctrl-C stops the control as it stops SKILLC: SIGINT lets it write run:end and its checkpoint.
    signal?.addEventListener('abort', () => child.kill('SIGINT'), { once: true });
  });
}

function testOutcomesOf(dir: string): TestOutcomes {
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
    testOutcomes?: TestOutcomes;
  };
  return summary.testOutcomes ?? {};
}

const points = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}`;

/** SKILLC against its control, in words: the difference, its interval, and what it means. */
export function comparisonLines(c: PairedDifference): string[] {
  const said =
    c.verdict === 'a tie'
      ? 'a tie: the interval contains 0, so this seed does not tell them apart'
      : c.verdict === 'ahead'
        ? 'SKILLC ahead: the whole interval is above 0'
        : 'SKILLC behind: the whole interval is below 0';
  return [
    `SKILLC − GRPO without skills on the same ${c.tasks} held-out tasks: ${points(c.difference)} points (95 % interval ${points(c.lower)} to ${points(c.upper)}, paired by task; ${c.onlyA} tasks only SKILLC solved, ${c.onlyB} only GRPO) — ${said}`,
    'one seed: the spread over seeds is larger; `pnpm bench:paper` pairs ten seeds by default, up to 20 with --until-decided',
  ];
}

const pct = (x: number | undefined) => (x === undefined ? '–' : `${(100 * x).toFixed(1)} %`);

/** First and last validation (SKILLC) or the reward by generation (Skill-R1), from the run directory. */
export function highlights(
  method: 'internalize' | 'evolve',
  dir: string,
  metrics: Record<string, number>,
): string[] {
  if (method === 'evolve') {
    const means: string[] = [];
    for (let g = 0; metrics[`generation_${g}_mean`] !== undefined || g === 0; g++) {
      means.push(pct(metrics[`generation_${g}_mean`]));
    }
    const lines = [`mean reward per generation (0 = the adapter's skills): ${means.join(' → ')}`];
    if (metrics.final_eval_reward !== undefined) {
      lines.push(`final skills re-run on fresh episodes: ${pct(metrics.final_eval_reward)}`);
    }
    return lines;
  }
  const validations: { step: number; with: number; without: number }[] = [];
  // Either layout: events.jsonl alone, or rotated into segments/ on a long run.
  for (const line of readRunStreamLines(dir, 'events')) {
    if (!line.includes('"validation"')) continue;
    const event = JSON.parse(line) as {
      type: string;
      step: number;
      validation?: { families: Record<string, { withSkill: number; withoutSkill: number }> };
    };
    if (event.type !== 'validation' || !event.validation) continue;
    const rates = Object.values(event.validation.families);
    const n = rates.length || 1;
    validations.push({
      step: event.step,
      with: rates.reduce((a, r) => a + r.withSkill, 0) / n,
      without: rates.reduce((a, r) => a + r.withoutSkill, 0) / n,
    });
  }
  // A run that never reads a skill (the GRPO control) has no "with skills" side to report.
  const variant = (JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { variant?: string })
    .variant;
  const skillFree = variant === 'grpo';
  const lines: string[] = [];
  const first = validations[0];
  const last = validations[validations.length - 1];
  if (first && last) {
    lines.push(
      `validation success without skills: ${pct(first.without)} at step ${first.step} → ${pct(last.without)} at step ${last.step}`,
    );
    if (!skillFree) {
      lines.push(
        `validation success with skills:    ${pct(first.with)} at step ${first.step} → ${pct(last.with)} at step ${last.step}`,
      );
    }
  }
  if (metrics.test_success_without !== undefined) {
    lines.push(
      skillFree
        ? `held-out test after training: ${pct(metrics.test_success_without)} without skills (it never reads one)`
        : `held-out test after training: ${pct(metrics.test_success_without)} without skills, ${pct(metrics.test_success_with)} with`,
    );
  }
  return lines;
}
