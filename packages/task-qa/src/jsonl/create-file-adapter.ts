import {
  createRng,
  InvalidArgumentError,
  type JsonObject,
  type LoadOptions,
  type Skill,
  type Task,
  type TaskAdapter,
  type ToolDefinition,
  ValidationError,
  type Verifier,
} from '@skillrl/core';
import { createQaEnvironment, type QaEnvironmentOptions } from '../adapter/qa-environment.js';
import { formatProblem, type JsonlProblem } from './jsonl-problem.js';
import { readJsonl } from './read-jsonl.js';

/** What a row mapper gets besides the row: where it is, and how to report a problem with it. */
export interface RowContext {
  file: string;
  line: number;
  /** The split the file was given for. */
  split: string;
  /** Reports a problem with this row. An `error` row should also be left out (return `undefined`). */
  report(field: string | undefined, message: string, severity?: 'error' | 'warning'): void;
}

/** Turns one JSONL row into a task, or `undefined` after reporting why it cannot. */
export type RowMapper = (row: JsonObject, context: RowContext) => Task | undefined;

export interface FileAdapterOptions {
  name: string;
  /** Split name → JSONL path. */
  files: Readonly<Record<string, string>>;
  mapRow: RowMapper;
  /** The families the adapter declares. Default: those of the loaded tasks, in file order. */
  families?: readonly string[];
  /** The splits the adapter declares. Default: the keys of `files`, then any other split a task names. */
  splits?: readonly string[];
  verifier(task: Task): Verifier;
  skills?(): Skill[];
  stepVocabulary?(): Record<string, string[]>;
  tools?: ToolDefinition[];
  /** Options of each task's environment (its step limit, its opening observation). */
  environment?(task: Task): QaEnvironmentOptions;
  /** Problems found before the rows were read (in a page cache, say), reported with the rows' own. */
  problems?: readonly JsonlProblem[];
  /** Called once with every problem found (if any). Default: one `process.emitWarning` listing them. */
  onProblems?(problems: readonly JsonlProblem[]): void;
  /** Throw a `ValidationError` listing every problem instead of reporting them. Default false. */
  strict?: boolean;
}

/** A file-backed adapter also tells what it read and what it could not. */
export interface FileTaskAdapter extends TaskAdapter {
  /** Every task read, in file order. */
  readonly tasks: readonly Task[];
  /** Every problem found while reading, in file order. */
  readonly problems: readonly JsonlProblem[];
}

const SHOWN_PROBLEMS = 20;

function warnProblems(name: string, problems: readonly JsonlProblem[]): void {
  const lines = problems.slice(0, SHOWN_PROBLEMS).map((p) => `  ${formatProblem(p)}`);
  if (problems.length > SHOWN_PROBLEMS)
    lines.push(`  … and ${problems.length - SHOWN_PROBLEMS} more (adapter.problems)`);
  process.emitWarning(`${name}: ${problems.length} problem(s) reading task files:\n${lines.join('\n')}`, {
    type: 'SkillrlDataWarning',
  });
}

/**
 * Samples `limit` tasks. With a seed the choice is a seeded shuffle (the same seed, the same tasks, on every
 * machine); without one, the first `limit` in file order.
 */
export function selectTasks(tasks: readonly Task[], options: LoadOptions): Task[] {
  const { limit, seed } = options;
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0)) {
    throw new InvalidArgumentError('options.limit', `expected an integer >= 0, got ${String(limit)}`);
  }
  const ordered = seed === undefined ? [...tasks] : createRng(seed).fork('select').shuffle(tasks);
  return limit === undefined ? ordered : ordered.slice(0, limit);
}

/**
 * An adapter over JSONL files, read eagerly (at creation) so that `families` and `splits` are known and
 * problems surface at once. Duplicate task ids are reported and the later row is left out.
 */
export function createFileAdapter(options: FileAdapterOptions): FileTaskAdapter {
  const tasks: Task[] = [];
  const problems: JsonlProblem[] = [];
  const seen = new Map<string, string>();
  const found = options.problems ?? [];
  for (const [split, file] of Object.entries(options.files)) {
    const read = readJsonl(file, `${options.name} files.${split}`);
    problems.push(...read.problems);
    for (const { line, value } of read.rows) {
      const report = (
        field: string | undefined,
        message: string,
        severity: 'error' | 'warning' = 'error',
      ) => {
        problems.push(
          field === undefined ? { file, line, severity, message } : { file, line, field, severity, message },
        );
      };
      const task = options.mapRow(value, { file, line, split, report });
      if (!task) continue;
      const first = seen.get(task.id);
      if (first !== undefined) {
        report(
          'id',
          `duplicate task id ${JSON.stringify(task.id)} (first at ${first}); this row is left out`,
        );
        continue;
      }
      seen.set(task.id, `${file}:${line}`);
      tasks.push(task);
    }
  }
  // Parse problems were collected per file before row problems: put each file's in line order.
  const fileOrder = Object.values(options.files);
  problems.sort((a, b) => fileOrder.indexOf(a.file) - fileOrder.indexOf(b.file) || a.line - b.line);
  problems.unshift(...found);
  if (problems.length > 0) {
    if (options.strict) {
      throw new ValidationError(
        `${options.name} task file`,
        problems.map((p) => ({
          path: `${p.file}:${p.line}${p.field ? ` ${p.field}` : ''}`,
          message: p.message,
        })),
      );
    }
    (options.onProblems ?? ((found) => warnProblems(options.name, found)))(problems);
  }
  const splits = options.splits ?? [
    ...new Set([...Object.keys(options.files), ...tasks.map((t) => t.split)]),
  ];
  const families = options.families ?? [...new Set(tasks.map((t) => t.family))];
  const adapter: FileTaskAdapter = {
    name: options.name,
    families,
    splits,
    tasks,
    problems,
    load(load: LoadOptions) {
      if (!splits.includes(load.split)) {
        throw new InvalidArgumentError(
          'options.split',
          `${options.name} has no split ${JSON.stringify(load.split)}; expected one of ${splits.join(', ')}`,
        );
      }
      return selectTasks(
        tasks.filter((t) => t.split === load.split),
        load,
      );
    },
    createEnvironment(task: Task) {
      return createQaEnvironment(task, options.verifier(task), options.environment?.(task));
    },
    verifier: options.verifier,
  };
  if (options.skills) adapter.skills = options.skills;
  if (options.stepVocabulary) adapter.stepVocabulary = options.stepVocabulary;
  if (options.tools) adapter.tools = options.tools;
  return adapter;
}
