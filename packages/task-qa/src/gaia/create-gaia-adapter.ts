import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import {
  InvalidArgumentError,
  type JsonObject,
  type Task,
  type ToolDefinition,
  throwOnOptionIssues,
} from '@skillrl/core';
import { createFileAdapter, type FileTaskAdapter } from '../jsonl/create-file-adapter.js';
import { readField } from '../jsonl/field-path.js';
import type { JsonlProblem } from '../jsonl/jsonl-problem.js';
import { createReadFileTool, type ReadFileToolOptions } from '../tools/files/create-read-file-tool.js';
import { checkToolCalls } from '../tools/tool-calls.js';
import { createWebBackend, type WebBackendConfig } from '../tools/web/create-web-backend.js';
import { createWebTools } from '../tools/web/create-web-tools.js';
import { checkGaiaAdapterOptions } from './check-gaia-adapter-options.js';
import { GAIA_INSTRUCTIONS } from './gaia-prompt.js';
import { createGaiaVerifier, type GaiaVerifierOptions } from './gaia-verifier.js';

export const GAIA_FAMILIES = ['gaia-level-1', 'gaia-level-2', 'gaia-level-3'] as const;

export interface GaiaAdapterOptions {
  /**
   * A `metadata.jsonl` (its split is the name of its folder when that is `validation` or `test`, else
   * `validation`), or split name → `metadata.jsonl`. Attachments are looked up beside each file.
   */
  path: string | Readonly<Record<string, string>>;
  /** Put `GAIA_INSTRUCTIONS` before each question. Default true. */
  instructions?: boolean;
  verifier?: GaiaVerifierOptions;
  onProblems?: (problems: readonly JsonlProblem[]) => void;
  strict?: boolean;
  /**
   * The tools the adapter exposes (`adapter.tools`), used by an agent in tools mode. Default
   * `{ files: true }`: `read_file` over the task's attachment and no web. `false`: no tools.
   */
  tools?: GaiaToolsOptions | false;
}

/** GAIA's tools: the attachment reader and, with a backend, web search and page fetches. */
export interface GaiaToolsOptions {
  /** `read_file` over the task's attachment. Default true. */
  files?: boolean | Omit<ReadFileToolOptions, 'name'>;
  /**
   * `web_search` and `fetch_page` over this backend: `{ backend: 'page-cache', path }` (offline) or
   * `{ backend: 'http', api, baseURLEnv?, apiKeyEnv?, pages? }` (live). A relative path is read from the
   * folder of the (first) metadata file. Default: no web tools.
   */
  web?: WebBackendConfig;
  /** Tool calls allowed before the answer (the environment's step limit is this + 1). Default 10. */
  maxCalls?: number;
  /** Characters per `read_file` / `fetch_page` result. Default 20,000. */
  maxChars?: number;
  /** Results per `web_search`. Default 5. */
  results?: number;
}

function gaiaTools(
  options: GaiaToolsOptions | false | undefined,
  dataDir: string,
): { tools: ToolDefinition[]; maxCalls: number; problems: readonly JsonlProblem[] } {
  if (options === false) return { tools: [], maxCalls: 0, problems: [] };
  const config = options ?? {};
  const maxCalls = checkToolCalls(config.maxCalls, 'tools.maxCalls');
  const tools: ToolDefinition[] = [];
  const files = config.files ?? true;
  if (files !== false) {
    tools.push(
      createReadFileTool({
        ...(typeof files === 'object' ? files : {}),
        ...(config.maxChars !== undefined ? { maxChars: config.maxChars } : {}),
      }),
    );
  }
  let problems: readonly JsonlProblem[] = [];
  if (config.web !== undefined) {
    const backend = createWebBackend(config.web, dataDir, 'tools.web');
    problems = backend.problems ?? [];
    tools.push(
      ...createWebTools({
        backend,
        ...(config.maxChars !== undefined ? { maxChars: config.maxChars } : {}),
        ...(config.results !== undefined ? { results: config.results } : {}),
      }),
    );
  }
  return { tools, maxCalls: tools.length > 0 ? maxCalls : 0, problems };
}

function levelOf(value: unknown): number | undefined {
  const level =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
  return level === 1 || level === 2 || level === 3 ? level : undefined;
}

/**
 * GAIA from its `metadata.jsonl` rows (`task_id`, `Question`, `Level`, `Final answer`, `file_name`,
 * `Annotator Metadata`). Family `gaia-level-N` (Level as a number or a string). The test split's `?` answers
 * make unlabeled tasks (`answer` undefined), which the verifier refuses to score. An attachment named by
 * `file_name` is resolved beside the file into `metadata.attachment`; one that is not there is reported.
 * `adapter.tools` carries `read_file` (and the web tools when `tools.web` names a backend); each task's
 * environment then allows `tools.maxCalls` tool calls before its one answering step.
 */
export function createGaiaAdapter(options: GaiaAdapterOptions): FileTaskAdapter {
  throwOnOptionIssues(checkGaiaAdapterOptions(options, 'options'), 'gaia adapter');
  if (typeof options.path !== 'string' && Object.keys(options.path).length === 0) {
    throw new InvalidArgumentError('options.path', 'expected a metadata.jsonl path or a map of split → path');
  }
  const files =
    typeof options.path === 'string'
      ? { [basename(dirname(resolve(options.path))) === 'test' ? 'test' : 'validation']: options.path }
      : options.path;
  const instructions = options.instructions ?? true;
  const verifier = createGaiaVerifier(options.verifier);
  const dataDir = dirname(resolve(Object.values(files)[0] as string));
  const { tools, maxCalls, problems } = gaiaTools(options.tools, dataDir);
  return createFileAdapter({
    name: 'gaia',
    files,
    families: GAIA_FAMILIES,
    verifier: () => verifier,
    ...(tools.length > 0 ? { tools, environment: () => ({ maxSteps: maxCalls + 1 }) } : {}),
    ...(problems.length > 0 ? { problems } : {}),
    ...(options.onProblems ? { onProblems: options.onProblems } : {}),
    ...(options.strict !== undefined ? { strict: options.strict } : {}),
    mapRow(row, context): Task | undefined {
      const id = readField(row, 'task_id');
      const question = readField(row, 'Question');
      const level = levelOf(readField(row, 'Level')?.value);
      let ok = true;
      if (typeof id?.value !== 'string' || id.value === '') {
        context.report('task_id', id === undefined ? 'missing' : 'expected a non-empty string');
        ok = false;
      }
      if (typeof question?.value !== 'string' || question.value.trim() === '') {
        context.report('Question', question === undefined ? 'missing' : 'expected a non-empty string');
        ok = false;
      }
      if (level === undefined) {
        const raw = readField(row, 'Level');
        context.report(
          'Level',
          raw === undefined ? 'missing' : `expected 1, 2 or 3, got ${JSON.stringify(raw.value)}`,
        );
        ok = false;
      }
      if (!ok) return undefined;
      const metadata: JsonObject = { level: level as number, line: context.line };
      const answerField = readField(row, 'Final answer');
      let answer: string | undefined;
      if (answerField === undefined || answerField.value === null) {
        context.report('Final answer', 'missing: the task is unlabeled', 'warning');
      } else if (typeof answerField.value === 'string' || typeof answerField.value === 'number') {
        const text = String(answerField.value);
        // The test split hides its answers behind "?".
        if (text.trim() !== '?') answer = text;
      } else {
        context.report('Final answer', 'expected a string; the task is unlabeled', 'warning');
      }
      metadata.labeled = answer !== undefined;
      const fileName = readField(row, 'file_name')?.value;
      let attachment: string | undefined;
      if (typeof fileName === 'string' && fileName.trim() !== '') {
        attachment = resolve(dirname(context.file), fileName);
        metadata.fileName = fileName;
        metadata.attachment = attachment;
        if (!existsSync(attachment)) {
          metadata.attachmentMissing = true;
          context.report(
            'file_name',
            `attachment ${fileName} not found beside the file (${attachment})`,
            'warning',
          );
        }
      }
      const annotator = readField(row, 'Annotator Metadata')?.value;
      if (annotator !== undefined) metadata.annotatorMetadata = annotator;
      let prompt = question?.value as string;
      if (attachment) prompt += `\n\nAttached file: ${attachment}`;
      if (instructions) prompt = `${GAIA_INSTRUCTIONS}\n\n${prompt}`;
      const task: Task = {
        id: id?.value as string,
        family: `gaia-level-${level}`,
        split: context.split,
        prompt,
        metadata,
      };
      if (answer !== undefined) task.answer = answer;
      return task;
    },
  });
}
