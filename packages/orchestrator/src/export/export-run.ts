import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  type ChatTurnMessage,
  formatSkill,
  InvalidArgumentError,
  type JsonObject,
  readRunStream,
  readRunStreamLines,
  type SkillCandidate,
  type StreamReadNote,
  type Trajectory,
} from '@skillrl/core';
import type { RunManifest } from '../run/run-session.js';
import { leadingId } from './leading-id.js';
import { type RowSource, type TrlRow, trlRows } from './trl-rows.js';
import { verlRows } from './verl-rows.js';

/** `jsonl`: the flat rows of earlier versions; `trl`: TRL conversational rows; `verl`: verl agent-loop rows. */
export type ExportFormat = 'jsonl' | 'trl' | 'verl';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['jsonl', 'trl', 'verl'];

/** One flat training row (`--format jsonl`). */
export interface ExportRow {
  /** What the trained component saw. */
  prompt: string;
  /** What it produced. */
  completion: string;
  /** Per-token log-probs of the completion under the sampling policy, when recorded. */
  logProbs: number[] | null;
  tokenIds: number[] | null;
  advantage: number;
  /** Where the row came from: `{ unit, taskId, candidate }` or `{ unit, trajectoryId, step, condition }`. */
  meta: JsonObject;
}

export interface ExportOptions {
  format?: ExportFormat;
  /** Output file; default `<run-dir>/export.jsonl` (`export-trl.jsonl`, `export-verl.jsonl`). */
  out?: string;
}

export interface ExportResult {
  path: string;
  format: ExportFormat;
  rows: number;
  /** Trained trajectories (internalize) or candidates (evolve) that gave at least one row. */
  sources: number;
  /** What was left out, and why, in words (also printed by the CLI). */
  notes: string[];
}

interface AdvantageRecord {
  key: string;
  unit: string;
  rows: { taskId?: string; candidate?: number; trajectoryId?: string; advantage: number; reward?: number }[];
}

interface Counts {
  sources: number;
  /** internalize: turns without a chat record (trl) */
  turnsWithoutRecord: number;
  trajectoriesWithoutRecord: number;
  trajectoriesWithoutIds: number;
  perTurn: number;
  turns: number;
  /** What the stream readers skipped (a line still being written, a damaged line or segment). */
  read: StreamReadNote[];
}

function readManifest(dir: string): RunManifest {
  const path = join(dir, 'run.json');
  if (!existsSync(path)) {
    throw new InvalidArgumentError('run directory', `${dir} has no run.json; is it a skillrl run directory?`);
  }
  return JSON.parse(readFileSync(path, 'utf8')) as RunManifest;
}

const reading = (counts: Counts) => ({ onNote: (note: StreamReadNote) => counts.read.push(note) });

/** The advantages stream, a record appended twice (a unit interrupted after writing it) counted once. */
function readAdvantages(dir: string, counts: Counts): AdvantageRecord[] {
  const byKey = new Map<string, AdvantageRecord>();
  for (const r of readRunStream<AdvantageRecord>(dir, 'advantages', reading(counts))) byKey.set(r.key, r);
  return [...byKey.values()];
}

/** The editor's prompt as chat messages (a string prompt is one user message). */
function promptMessages(prompt: unknown, taskId: string): ChatTurnMessage[] {
  if (Array.isArray(prompt)) {
    return prompt.map((m: { role?: string; content?: unknown }) => ({
      role: m.role ?? 'user',
      content: String(m.content ?? ''),
    }));
  }
  return [{ role: 'user', content: typeof prompt === 'string' ? prompt : `task ${taskId}` }];
}

/** The editor's prompt as text: a string as is, chat messages as `role: content` blocks. */
function promptText(prompt: unknown, taskId: string): string {
  if (typeof prompt === 'string') return prompt;
  if (Array.isArray(prompt))
    return promptMessages(prompt, taskId)
      .map((m) => `${m.role}: ${m.content}`)
      .join('\n\n');
  return `task ${taskId}`;
}

function* evolveRows(dir: string, format: ExportFormat, counts: Counts): Generator<object> {
  if (format === 'verl') {
    throw new InvalidArgumentError(
      '--format',
      "verl rows need token ids of the prompt and the reply; an evolve run records its skill editor's proposals without prompt token ids. Use --format trl (chat messages) or --format jsonl.",
    );
  }
  const wanted = new Map<string, AdvantageRecord['rows']>();
  for (const record of readAdvantages(dir, counts)) {
    for (const row of record.rows) {
      const key = `${record.unit}/${row.taskId}`;
      const list = wanted.get(key) ?? [];
      list.push(row);
      wanted.set(key, list);
    }
  }
  const seen = new Set<string>();
  for (const record of readRunStream<{ key: string; candidates: SkillCandidate[] }>(
    dir,
    'candidates',
    reading(counts),
  )) {
    const rows = wanted.get(record.key);
    if (!rows || seen.has(record.key)) continue;
    seen.add(record.key);
    const unit = record.key.slice(0, record.key.indexOf('/'));
    for (const row of rows) {
      const proposal = record.candidates[row.candidate ?? 0];
      if (!proposal) continue;
      counts.sources++;
      const completion = proposal.text || formatSkill(proposal.skill);
      const meta = { unit, taskId: row.taskId ?? '', candidate: row.candidate ?? 0, reward: row.reward ?? 0 };
      if (format === 'jsonl') {
        yield {
          prompt: promptText(proposal.info?.prompt, row.taskId ?? ''),
          completion,
          logProbs: proposal.logProbs ?? null,
          tokenIds: proposal.tokenIds ?? null,
          advantage: row.advantage,
          meta,
        } satisfies ExportRow;
      } else {
        yield {
          prompt: promptMessages(proposal.info?.prompt, row.taskId ?? ''),
          completion: [{ role: 'assistant', content: completion }],
          advantage: row.advantage,
          reward: row.reward ?? 0,
          ...(proposal.tokenIds ? { completion_ids: proposal.tokenIds } : {}),
          ...(proposal.logProbs ? { completion_logprobs: proposal.logProbs } : {}),
          meta: { unit, task_id: meta.taskId, candidate: meta.candidate },
        } satisfies TrlRow;
      }
    }
  }
}

function* internalizeRows(dir: string, format: ExportFormat, counts: Counts): Generator<object> {
  const trained = new Map<string, RowSource>();
  for (const record of readAdvantages(dir, counts)) {
    for (const row of record.rows) {
      if (row.trajectoryId) trained.set(row.trajectoryId, { unit: record.unit, advantage: row.advantage });
    }
  }
  const done = new Set<string>();
  // One trajectory in memory at a time: the rollouts hold every episode of the run (hundreds of MB), in
  // rollouts.jsonl or, in a long run, its closed segments too (core's reader reads both layouts).
  for (const line of readRunStreamLines(dir, 'rollouts', reading(counts))) {
    const id = leadingId(line);
    if (id !== undefined && (!trained.has(id) || done.has(id))) continue;
    const t = JSON.parse(line) as Trajectory;
    const source = trained.get(t.id);
    if (!source || done.has(t.id)) continue;
    done.add(t.id);
    counts.turns += t.steps.length;
    if (format === 'jsonl') {
      counts.sources++;
      for (const step of t.steps) {
        yield {
          prompt: step.observation,
          completion: step.action,
          logProbs: step.logProbs ?? (step.logProb !== undefined ? [step.logProb] : null),
          tokenIds: step.tokenIds ?? null,
          advantage: source.advantage,
          meta: {
            unit: source.unit,
            trajectoryId: t.id,
            taskId: t.taskId,
            step: step.index,
            condition: t.condition,
            ...(t.skill ? { skill: t.skill.name } : {}),
          },
        } satisfies ExportRow;
      }
    } else if (format === 'trl') {
      const { rows, missing } = trlRows(t, source);
      counts.turnsWithoutRecord += missing;
      if (rows.length > 0) counts.sources++;
      else counts.trajectoriesWithoutRecord++;
      yield* rows;
    } else {
      const result = verlRows(t, source);
      if (result.kind === 'skipped') {
        if (result.reason === 'no-record') counts.trajectoriesWithoutRecord++;
        else counts.trajectoriesWithoutIds++;
        continue;
      }
      counts.sources++;
      if (result.perTurn) counts.perTurn++;
      yield* result.rows;
    }
  }
}

const NO_RECORD =
  'the steps carry no chat record (step.info.chat): the agent is not the openai agent of @skillrl/rollout, or it ran with recordChat: false';
const NO_IDS =
  'no token ids came back: run the openai agent with `returnTokenIds: true` (vLLM >= 0.10.2 answers `return_token_ids` with `prompt_token_ids` and `choices[].token_ids`) and, for log-probs, `logprobs: true`';

/** What an export left out, in words; throws when nothing could be exported in the asked-for layout. */
function notesOf(format: ExportFormat, method: string, counts: Counts, rows: number): string[] {
  const notes: string[] = counts.read.map((n) =>
    n.kind === 'torn'
      ? `${n.file}: an unfinished last line (${n.bytes} bytes) left out: a run still writing, or torn by a crash.`
      : n.kind === 'damaged'
        ? `${n.file}: line ${n.lineNo} is not valid JSON and was left out.`
        : `${n.file} could not be read and was left out: ${n.reason}`,
  );
  if (method !== 'internalize' || format === 'jsonl') return notes;
  const trained = counts.sources + counts.trajectoriesWithoutRecord + counts.trajectoriesWithoutIds;
  if (format === 'trl') {
    if (rows === 0 && trained > 0) {
      throw new InvalidArgumentError(
        '--format',
        `trl rows are the chat messages as sent, and ${NO_RECORD}. --format jsonl gives (observation, action) rows.`,
      );
    }
    if (counts.turnsWithoutRecord > 0)
      notes.push(`${counts.turnsWithoutRecord} of ${counts.turns} turns left out: ${NO_RECORD}.`);
    return notes;
  }
  if (rows === 0 && trained > 0) {
    const why = counts.trajectoriesWithoutIds > 0 ? NO_IDS : NO_RECORD;
    throw new InvalidArgumentError(
      '--format',
      `verl rows are token ids, and none of the ${trained} trained trajectories has them for every turn: ${why}. --format trl gives the chat messages.`,
    );
  }
  if (counts.trajectoriesWithoutIds > 0)
    notes.push(`${counts.trajectoriesWithoutIds} of ${trained} trained trajectories left out: ${NO_IDS}.`);
  if (counts.trajectoriesWithoutRecord > 0)
    notes.push(
      `${counts.trajectoriesWithoutRecord} of ${trained} trained trajectories left out: ${NO_RECORD}.`,
    );
  if (counts.perTurn > 0) {
    notes.push(
      `${counts.perTurn} of ${counts.sources} trajectories are one row per turn: a turn's prompt was not the previous prompt plus its reply (the agent re-rendered earlier messages: the admissible actions move to the newest observation, a history window, tools that change per turn), so one multi-turn sequence would claim a context the model never saw.`,
    );
  }
  return notes;
}

const DEFAULT_FILE: Record<ExportFormat, string> = {
  jsonl: 'export.jsonl',
  trl: 'export-trl.jsonl',
  verl: 'export-verl.jsonl',
};

/** The rows of a run in one layout, read from the run directory one record at a time. */
export function* exportRecords(
  runDir: string,
  format: ExportFormat = 'jsonl',
  counts: Counts = emptyCounts(),
): Generator<object> {
  if (!EXPORT_FORMATS.includes(format)) {
    throw new InvalidArgumentError(
      '--format',
      `expected one of ${EXPORT_FORMATS.join(', ')}, got "${format}"`,
    );
  }
  const dir = resolve(runDir);
  const manifest = readManifest(dir);
  yield* manifest.method === 'evolve'
    ? evolveRows(dir, format, counts)
    : internalizeRows(dir, format, counts);
}

function emptyCounts(): Counts {
  return {
    sources: 0,
    turnsWithoutRecord: 0,
    trajectoriesWithoutRecord: 0,
    trajectoriesWithoutIds: 0,
    perTurn: 0,
    turns: 0,
    read: [],
  };
}

/**
 * Writes a run's training rows as JSONL, streaming: one trajectory (or candidate) in memory at a time, the
 * output written in chunks to a temporary file renamed into place at the end, so a failed export leaves no
 * half file. `jsonl`: the flat `ExportRow`s; `trl`: one conversational row per turn (`TrlRow`); `verl`: one
 * agent-loop row per trajectory, or per turn where the turns do not chain (`VerlRow`).
 */
export function exportRun(runDir: string, options: ExportOptions = {}): ExportResult {
  const format = options.format ?? 'jsonl';
  const dir = resolve(runDir);
  const manifest = readManifest(dir);
  const path = resolve(options.out ?? join(dir, DEFAULT_FILE[format] ?? 'export.jsonl'));
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const counts = emptyCounts();
  let rows = 0;
  const fd = openSync(temp, 'w');
  try {
    let chunk = '';
    for (const row of exportRecords(dir, format, counts)) {
      chunk += `${JSON.stringify(row)}\n`;
      rows++;
      if (chunk.length >= 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    if (chunk) writeSync(fd, chunk);
    closeSync(fd);
    const notes = notesOf(format, manifest.method, counts, rows);
    renameSync(temp, path);
    return { path, format, rows, sources: counts.sources, notes };
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(temp, { force: true });
    throw error;
  }
}
