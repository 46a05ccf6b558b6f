import { basename } from 'node:path';
import {
  InvalidArgumentError,
  type JsonObject,
  type JsonValue,
  type Skill,
  type Task,
  throwOnOptionIssues,
  type Verifier,
} from '@skillrl/core';
import { createGaiaVerifier } from '../gaia/gaia-verifier.js';
import { checkJsonlAdapterOptions } from './check-jsonl-adapter-options.js';
import { createFileAdapter, type FileTaskAdapter } from './create-file-adapter.js';
import { describeField, type FieldSpec, readField } from './field-path.js';
import type { JsonlProblem } from './jsonl-problem.js';

/** Where each task field is read from in a row. Each accepts several spellings (first present wins). */
export interface JsonlFields {
  /** Default: none — the id is `<file name>:<line>`. */
  id?: FieldSpec;
  /** Default `question`. Required in every row. */
  question?: FieldSpec;
  /** Default `answer`. Absent or `null` means unlabeled. */
  answer?: FieldSpec;
  /** Default: none — every task gets `options.family`. */
  family?: FieldSpec;
  /** Default: none — every task gets the split its file was given for. */
  split?: FieldSpec;
  /** Extra values copied into `task.metadata`, under the given names. */
  metadata?: Readonly<Record<string, FieldSpec>>;
}

export interface JsonlAdapterOptions {
  /** One JSONL file (its split is `split`), or split name → file. */
  path: string | Readonly<Record<string, string>>;
  fields?: JsonlFields;
  /** Adapter name. Default `jsonl`. */
  name?: string;
  /** The split of a single `path`. Default `test`. */
  split?: string;
  /** The family of rows without a family field. Default `qa`. */
  family?: string;
  /** Maps a raw family value (a number, `"2"`, …) to the family name. Default: `String(value)`. */
  familyOf?: (value: JsonValue) => string;
  /** Answer strings that mean "no label" (GAIA's test split writes `?`). Default none. */
  unlabeled?: readonly string[];
  /** Prepended to every question, followed by a blank line (answer-format instructions). Default none. */
  instructions?: string;
  /** Default: GAIA's official scorer, on the `FINAL ANSWER:` part when there is one (`createGaiaVerifier`). */
  verifier?: (task: Task) => Verifier;
  skills?: () => Skill[];
  onProblems?: (problems: readonly JsonlProblem[]) => void;
  strict?: boolean;
}

function answerValue(value: JsonValue): JsonValue | undefined {
  return value === null ? undefined : value;
}

/**
 * A task adapter over any JSONL file of questions and answers, with configurable field names. Rows that lack
 * the question, or whose fields have the wrong type, are reported with file, line and field and left out; see
 * `FileTaskAdapter.problems`.
 */
export function createJsonlAdapter(options: JsonlAdapterOptions): FileTaskAdapter {
  throwOnOptionIssues(checkJsonlAdapterOptions(options, 'options'), 'qa-jsonl adapter');
  const name = options.name ?? 'jsonl';
  const fields = options.fields ?? {};
  const questionSpec = fields.question ?? 'question';
  const answerSpec = fields.answer ?? 'answer';
  const defaultFamily = options.family ?? 'qa';
  const unlabeled = new Set(options.unlabeled ?? []);
  if (typeof options.path !== 'string' && Object.keys(options.path).length === 0) {
    throw new InvalidArgumentError('options.path', 'expected a file path or a non-empty map of split → path');
  }
  const files = typeof options.path === 'string' ? { [options.split ?? 'test']: options.path } : options.path;
  const verifier = options.verifier ?? (() => createGaiaVerifier());

  const readString = (row: JsonObject, spec: FieldSpec, report: (f: string, m: string) => void) => {
    const found = readField(row, spec);
    if (found === undefined || found.value === null) return undefined;
    if (typeof found.value === 'string') return found.value;
    if (typeof found.value === 'number') return String(found.value);
    report(
      found.key,
      `expected a string or a number, got ${Array.isArray(found.value) ? 'an array' : typeof found.value}`,
    );
    return null;
  };

  const adapterOptions: Parameters<typeof createFileAdapter>[0] = {
    name,
    files,
    verifier,
    mapRow(row, context) {
      let bad = false;
      const report = (field: string, message: string) => {
        bad = true;
        context.report(field, message);
      };
      const question = readField(row, questionSpec);
      if (question === undefined || typeof question.value !== 'string' || question.value.trim() === '') {
        report(
          describeField(questionSpec),
          question === undefined ? 'missing' : 'expected a non-empty string',
        );
      }
      const id = fields.id ? readString(row, fields.id, report) : `${basename(context.file)}:${context.line}`;
      if (id === undefined) report(describeField(fields.id ?? 'id'), 'missing');
      const family = fields.family ? readField(row, fields.family) : undefined;
      if (fields.family && (family === undefined || family.value === null)) {
        report(describeField(fields.family), 'missing');
      } else if (family && !options.familyOf && typeof family.value === 'object') {
        report(family.key, 'expected a string or a number (or pass options.familyOf to map this value)');
      }
      const split = fields.split ? readString(row, fields.split, report) : context.split;
      if (split === undefined) report(describeField(fields.split ?? 'split'), 'missing');
      const answerField = readField(row, answerSpec);
      let answer = answerField === undefined ? undefined : answerValue(answerField.value);
      if (typeof answer === 'string' && unlabeled.has(answer.trim())) answer = undefined;
      if (bad || typeof id !== 'string' || typeof split !== 'string') return undefined;
      const metadata: JsonObject = { line: context.line };
      for (const [key, spec] of Object.entries(fields.metadata ?? {})) {
        const found = readField(row, spec);
        if (found !== undefined) metadata[key] = found.value;
      }
      const text = (question as { value: string }).value;
      const task: Task = {
        id,
        family: family ? (options.familyOf ?? String)(family.value as JsonValue) : defaultFamily,
        split,
        prompt: options.instructions ? `${options.instructions}\n\n${text}` : text,
        metadata,
      };
      if (answer !== undefined) task.answer = answer;
      return task;
    },
  };
  if (options.skills) adapterOptions.skills = options.skills;
  if (options.onProblems) adapterOptions.onProblems = options.onProblems;
  if (options.strict !== undefined) adapterOptions.strict = options.strict;
  return createFileAdapter(adapterOptions);
}
