import { createHash } from 'node:crypto';
import { dirname, isAbsolute, resolve } from 'node:path';
import { InvalidArgumentError, type JsonObject, type Task, throwOnOptionIssues } from '@skillrl/core';
import { createFileAdapter, type FileTaskAdapter } from '../jsonl/create-file-adapter.js';
import { isJsonObject, readField } from '../jsonl/field-path.js';
import type { JsonlProblem } from '../jsonl/jsonl-problem.js';
import { checkToolCalls } from '../tools/tool-calls.js';
import { DEFAULT_TOOL_MAX_CHARS } from '../tools/tool-text.js';
import { createVisitPageTool } from '../tools/web/create-visit-page-tool.js';
import { formatPage } from '../tools/web/format-web-results.js';
import { loadPageCache, type PageCache } from '../tools/web/page-cache.js';
import { checkWebWalkerAdapterOptions } from './check-webwalker-adapter-options.js';
import { createWebWalkerVerifier, type WebWalkerVerifierOptions } from './webwalker-verifier.js';

/** The six cells WebWalkerQA reports: {single, multi}-source × {easy, medium, hard}. */
export const WEBWALKER_FAMILIES = [
  'webwalker-single-easy',
  'webwalker-single-medium',
  'webwalker-single-hard',
  'webwalker-multi-easy',
  'webwalker-multi-medium',
  'webwalker-multi-hard',
] as const;

/** Rows whose type or difficulty is missing or unknown (reported as warnings) get this family. */
export const WEBWALKER_UNKNOWN_FAMILY = 'webwalker-unknown';

export interface WebWalkerAdapterOptions {
  /** A WebWalkerQA JSONL (split `main`), or split name → file (`main`, `silver`). */
  path: string | Readonly<Record<string, string>>;
  verifier?: WebWalkerVerifierOptions;
  onProblems?: (problems: readonly JsonlProblem[]) => void;
  strict?: boolean;
  /**
   * The offline copy of the sites (a page cache: `loadPageCache`'s format, or a path to one; a relative
   * path is read from the folder of the (first) JSONL file). With it the adapter exposes `visit_page`, and
   * a row whose `root_url` is not in it is reported. Default: no tool.
   */
  pages?: string | PageCache;
  /** `visit_page` calls allowed before the answer (the step limit is this + 1). Default 10. */
  maxCalls?: number;
  /** Characters of page text per `visit_page` result (and of the start page). Default 20,000. */
  maxChars?: number;
  /**
   * Start each episode on the root page: `reset()` shows the question, then the root page's text and
   * links, as WebWalkerQA's agent starts from the site's root. Default true (with `pages`).
   */
  startPage?: boolean;
}

function sourceKind(value: unknown): 'single' | 'multi' | undefined {
  if (typeof value !== 'string') return undefined;
  const kind = value.trim().toLowerCase().replace(/[-\s]/g, '_');
  if (kind === 'single_source' || kind === 'single') return 'single';
  if (kind === 'multi_source' || kind === 'multi') return 'multi';
  return undefined;
}

function difficultyOf(value: unknown): 'easy' | 'medium' | 'hard' | undefined {
  if (typeof value !== 'string') return undefined;
  const level = value.trim().toLowerCase();
  return level === 'easy' || level === 'medium' || level === 'hard' ? level : undefined;
}

/**
 * WebWalkerQA rows in either spelling: the GitHub one (`question`, `answer`, `root_url`, `info{type,
 * difficulty_level, lang, domain, source_website, golden_path}`) or the dataset card's (`Question`, `Answer`,
 * `Root_Url`, `Info{Hop, Difficulty_Level, Language, Domain, Source_Website, Golden_Path}`). The family is the
 * reporting cell `webwalker-{single|multi}-{easy|medium|hard}`; the id is `webwalker-` + the first 12 hex digits
 * of the question's SHA-1 (the official script keys rows by question text).
 */
export function createWebWalkerAdapter(options: WebWalkerAdapterOptions): FileTaskAdapter {
  throwOnOptionIssues(checkWebWalkerAdapterOptions(options, 'options'), 'webwalker adapter');
  if (typeof options.path !== 'string' && Object.keys(options.path).length === 0) {
    throw new InvalidArgumentError('options.path', 'expected a JSONL path or a map of split → path');
  }
  const files = typeof options.path === 'string' ? { main: options.path } : options.path;
  const verifier = createWebWalkerVerifier(options.verifier);
  let unknownUsed = false;
  const dataDir = dirname(resolve(Object.values(files)[0] as string));
  const pages =
    typeof options.pages === 'string'
      ? loadPageCache(isAbsolute(options.pages) ? options.pages : resolve(dataDir, options.pages), 'pages')
      : options.pages;
  const maxCalls = checkToolCalls(options.maxCalls, 'maxCalls');
  const maxChars = options.maxChars ?? DEFAULT_TOOL_MAX_CHARS;
  const startPage = options.startPage ?? true;
  const opening = (task: Task): string | undefined => {
    const root = task.metadata?.rootUrl;
    const page = pages && startPage && typeof root === 'string' ? pages.get(root) : undefined;
    return page
      ? `${task.prompt}\n\nYou are on the start page.\n\n${formatPage(page, 0, maxChars, 'visit_page')}`
      : undefined;
  };
  const adapter = createFileAdapter({
    name: 'webwalkerqa',
    files,
    verifier: () => verifier,
    ...(pages
      ? {
          tools: [createVisitPageTool({ pages, maxChars })],
          environment: (task: Task) => {
            const shown = opening(task);
            return { maxSteps: maxCalls + 1, ...(shown !== undefined ? { opening: shown } : {}) };
          },
          ...(pages.problems.length > 0 ? { problems: pages.problems } : {}),
        }
      : {}),
    ...(options.onProblems ? { onProblems: options.onProblems } : {}),
    ...(options.strict !== undefined ? { strict: options.strict } : {}),
    mapRow(row, context): Task | undefined {
      const question = readField(row, ['question', 'Question']);
      if (typeof question?.value !== 'string' || question.value.trim() === '') {
        context.report(
          'question|Question',
          question === undefined ? 'missing' : 'expected a non-empty string',
        );
        return undefined;
      }
      const answer = readField(row, ['answer', 'Answer']);
      if (answer !== undefined && answer.value !== null && typeof answer.value !== 'string') {
        context.report(answer.key, 'expected a string');
        return undefined;
      }
      if (answer === undefined || answer.value === null) {
        context.report('answer|Answer', 'missing: the task is unlabeled', 'warning');
      }
      const infoField = readField(row, ['info', 'Info']);
      const info: JsonObject = infoField && isJsonObject(infoField.value) ? infoField.value : {};
      if (infoField !== undefined && !isJsonObject(infoField.value)) {
        context.report(infoField.key, 'expected an object', 'warning');
      }
      const kindField = readField(info, ['type', 'Hop']);
      const difficultyField = readField(info, ['difficulty_level', 'Difficulty_Level']);
      const kind = sourceKind(kindField?.value);
      const difficulty = difficultyOf(difficultyField?.value);
      if (kind === undefined) {
        context.report(
          'info.type|Info.Hop',
          `expected single_source or multi_source, got ${JSON.stringify(kindField?.value ?? null)}; family ${WEBWALKER_UNKNOWN_FAMILY}`,
          'warning',
        );
      }
      if (difficulty === undefined) {
        context.report(
          'info.difficulty_level|Info.Difficulty_Level',
          `expected easy, medium or hard, got ${JSON.stringify(difficultyField?.value ?? null)}; family ${WEBWALKER_UNKNOWN_FAMILY}`,
          'warning',
        );
      }
      const family = kind && difficulty ? `webwalker-${kind}-${difficulty}` : WEBWALKER_UNKNOWN_FAMILY;
      if (family === WEBWALKER_UNKNOWN_FAMILY) unknownUsed = true;
      const text = question.value;
      const rootUrl = readField(row, ['root_url', 'Root_Url'])?.value;
      const metadata: JsonObject = {
        question: text,
        line: context.line,
        type: kind ?? null,
        difficulty: difficulty ?? null,
      };
      if (typeof rootUrl === 'string') metadata.rootUrl = rootUrl;
      if (pages && typeof rootUrl === 'string' && !pages.get(rootUrl)) {
        context.report(
          'root_url|Root_Url',
          `${rootUrl} is not in the page cache (${pages.source}): the episode has no start page`,
          'warning',
        );
      }
      const extras: Array<[string, string[]]> = [
        ['lang', ['lang', 'Language']],
        ['domain', ['domain', 'Domain']],
        ['sourceWebsite', ['source_website', 'Source_Website']],
        ['goldenPath', ['golden_path', 'Golden_Path']],
      ];
      for (const [key, spellings] of extras) {
        const found = readField(info, spellings);
        if (found !== undefined) metadata[key] = found.value;
      }
      const task: Task = {
        id: `webwalker-${createHash('sha1').update(text).digest('hex').slice(0, 12)}`,
        family,
        split: context.split,
        prompt: typeof rootUrl === 'string' ? `${text}\n\nStart from the website ${rootUrl}` : text,
        metadata,
      };
      if (typeof answer?.value === 'string') task.answer = answer.value;
      return task;
    },
  });
  // Reading is eager, so by now we know whether any row fell outside the six cells.
  return unknownUsed
    ? { ...adapter, families: [...WEBWALKER_FAMILIES, WEBWALKER_UNKNOWN_FAMILY] }
    : { ...adapter, families: WEBWALKER_FAMILIES };
}
