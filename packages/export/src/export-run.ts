import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
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
import { lastRunEnd } from '../run/run-config.js';
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
  /**
   * Rows the run should have given but that could not be written: those of an update whose advantages
   * line is torn or damaged (counted from its rollouts or candidates), and of trained trajectories or
   * candidates whose own line is missing (counted where their steps are known; see `notes`). 0 when none.
   */
  rowsNotWritten: number;
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
  /** Advantage records that could not be read: the unit each was for, when its key survived. */
  lostUpdates: LostUpdate[];
  /** Trained trajectories (internalize) or candidate records (evolve) listed in advantages but not found. */
  sourcesMissing: number;
}

/** An advantages line the export could not use, and what it cost. */
interface LostUpdate {
  /** `advantages.jsonl` (or its segment), as the reader names it. */
  file: string;
  how: { kind: 'torn'; bytes: number } | { kind: 'damaged'; record: number };
  /** The unit the record was for (`s4`, `g2`), read from the start of the line; undefined if torn before it. */
  unit: string | undefined;
  /** Rows the unit's stored rollouts (or candidates) would have given, and how many of those sources. */
  rows: number;
  sources: number;
}

// A record is written `{"key":…,"unit":…,"rows":[…]}`: the key survives a tear anywhere after it.
const LEADING_KEY = /^\{"key":"((?:[^"\\]|\\.)*)"/;

function unitOf(text: string): string | undefined {
  const m = LEADING_KEY.exec(text);
  if (!m) return undefined;
  try {
    const key = JSON.parse(`"${m[1]}"`) as string;
    const slash = key.indexOf('/');
    return slash === -1 ? key : key.slice(0, slash);
  } catch {
    return undefined;
  }
}

/** The first bytes of the unfinished last line of `file` (the reader gives its length). */
function tailText(dir: string, file: string, bytes: number): string {
  const path = join(dir, file);
  if (!file.endsWith('.jsonl') || !existsSync(path)) return '';
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(bytes, 4096));
    const n = readSync(fd, buf, 0, buf.length, Math.max(0, size - bytes));
    return buf.toString('utf8', 0, n);
  } finally {
    closeSync(fd);
  }
}

function readManifest(dir: string): RunManifest {
  const path = join(dir, 'run.json');
  if (!existsSync(path)) {
    throw new InvalidArgumentError('run directory', `${dir} has no run.json; is it a skillrl run directory?`);
  }
  return JSON.parse(readFileSync(path, 'utf8')) as RunManifest;
}

const reading = (counts: Counts) => ({ onNote: (note: StreamReadNote) => counts.read.push(note) });

/**
 * The advantages stream, a record appended twice (a unit interrupted after writing it) counted once. A torn
 * or damaged record is set aside in `counts.lostUpdates` with its unit, so that the rows it would have
 * given are counted and said rather than silently missing.
 */
function readAdvantages(dir: string, counts: Counts): AdvantageRecord[] {
  const byKey = new Map<string, AdvantageRecord>();
  let record = 0;
  const onNote = (note: StreamReadNote) => {
    if (note.kind !== 'torn') {
      counts.read.push(note);
      return;
    }
    counts.lostUpdates.push({
      file: note.file,
      how: { kind: 'torn', bytes: note.bytes },
      unit: unitOf(tailText(dir, note.file, note.bytes)),
      rows: 0,
      sources: 0,
    });
  };
  for (const line of readRunStreamLines(dir, 'advantages', { onNote })) {
    record++;
    let r: AdvantageRecord;
    try {
      r = JSON.parse(line) as AdvantageRecord;
    } catch {
      counts.lostUpdates.push({
        file: 'advantages',
        how: { kind: 'damaged', record },
        unit: unitOf(line),
        rows: 0,
        sources: 0,
      });
      continue;
    }
    byKey.set(r.key, r);
  }
  // A unit whose record is complete elsewhere (written again by a resume) lost nothing: only the line is said.
  const units = new Set([...byKey.values()].map((r) => r.unit));
  counts.lostUpdates = counts.lostUpdates.filter((l) => {
    if (l.unit === undefined || !units.has(l.unit)) return true;
    counts.read.push(
      l.how.kind === 'torn'
        ? { kind: 'torn', file: l.file, bytes: l.how.bytes }
        : { kind: 'damaged', file: l.file, lineNo: l.how.record },
    );
    return false;
  });
  return [...byKey.values()];
}

/** The lost update a source of `unit` belongs to, if its advantages could not be read. */
const lostUpdateOf = (counts: Counts, unit: string) => counts.lostUpdates.find((l) => l.unit === unit);

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
  const lostSeen = new Set<string>();
  for (const record of readRunStream<{ key: string; candidates: SkillCandidate[] }>(
    dir,
    'candidates',
    reading(counts),
  )) {
    const rows = wanted.get(record.key);
    const unit = record.key.slice(0, record.key.indexOf('/'));
    if (!rows) {
      // A task of an update whose advantages are unreadable: one row per candidate it evaluated.
      const lost = lostUpdateOf(counts, unit);
      if (lost && !lostSeen.has(record.key)) {
        lostSeen.add(record.key);
        lost.sources += record.candidates.length;
        lost.rows += record.candidates.length;
      }
      continue;
    }
    if (seen.has(record.key)) continue;
    seen.add(record.key);
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
  for (const key of wanted.keys()) if (!seen.has(key)) counts.sourcesMissing++;
}

function* internalizeRows(dir: string, format: ExportFormat, counts: Counts): Generator<object> {
  const trained = new Map<string, RowSource>();
  for (const record of readAdvantages(dir, counts)) {
    for (const row of record.rows) {
      if (row.trajectoryId) trained.set(row.trajectoryId, { unit: record.unit, advantage: row.advantage });
    }
  }
  const done = new Set<string>();
  const lostSeen = new Set<string>();
  // Trajectory ids start with their unit (`s4/…`): a rollout of an update whose advantages are unreadable.
  const lostUnitOf = (id: string) => {
    if (counts.lostUpdates.length === 0 || trained.has(id) || lostSeen.has(id)) return undefined;
    const slash = id.indexOf('/');
    return slash === -1 ? undefined : lostUpdateOf(counts, id.slice(0, slash));
  };
  // One trajectory in memory at a time: the rollouts hold every episode of the run (hundreds of MB), in
  // rollouts.jsonl or, in a long run, its closed segments too (core's reader reads both layouts).
  let record = 0;
  for (const line of readRunStreamLines(dir, 'rollouts', reading(counts))) {
    record++;
    const id = leadingId(line);
    if (id !== undefined && (!trained.has(id) || done.has(id)) && !lostUnitOf(id)) continue;
    let t: Trajectory;
    try {
      t = JSON.parse(line) as Trajectory;
    } catch {
      // Said with the rest; a trained trajectory it held is counted as missing below.
      counts.read.push({ kind: 'damaged', file: 'rollouts', lineNo: record });
      continue;
    }
    const lost = lostUnitOf(t.id);
    if (lost) {
      lostSeen.add(t.id);
      lost.sources++;
      lost.rows += rowsOf(t, format, { unit: lost.unit ?? '', advantage: 0 });
      continue;
    }
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
  for (const id of trained.keys()) if (!done.has(id)) counts.sourcesMissing++;
}

/** The rows one trajectory gives in a layout (what an update whose advantages were lost cost). */
function rowsOf(t: Trajectory, format: ExportFormat, source: RowSource): number {
  if (format === 'jsonl') return t.steps.length;
  if (format === 'trl') return trlRows(t, source).rows.length;
  const result = verlRows(t, source);
  return result.kind === 'skipped' ? 0 : result.rows.length;
}

const NO_RECORD =
  'the steps carry no chat record (step.info.chat): the agent is not the openai agent of @skillrl/rollout, or it ran with recordChat: false';
const NO_IDS =
  'no token ids came back: run the openai agent with `returnTokenIds: true` (vLLM >= 0.10.2 answers `return_token_ids` with `prompt_token_ids` and `choices[].token_ids`) and, for log-probs, `logprobs: true`';

/** An unreadable advantages record in words: what happened, the rows it cost, and what to do. */
function lostUpdateNote(lost: LostUpdate, method: string, dir: string, completed: boolean): string {
  const where =
    lost.how.kind === 'torn'
      ? `${lost.file}: its last line is unfinished (${lost.how.bytes} bytes, no newline): torn by a crash, or still being written`
      : `advantages: record ${lost.how.record} is not valid JSON (damaged)`;
  const of = method === 'evolve' ? 'candidates' : 'trajectories';
  // A torn line is what a kill leaves, and resuming drops it and makes the update again; a damaged line
  // that ends with a newline is refused by the run store until someone repairs or removes it.
  // A completed run is left as it is by resume: the line was damaged after the run, not by it.
  const fix = completed
    ? 'The run completed, so `skillrl resume` leaves it as it is: restore advantages.jsonl from a copy to write them.'
    : lost.how.kind === 'torn'
      ? `To write them, resume the run (skillrl resume ${dir}) so that the update is made again, then export again.`
      : `To write them, repair or remove that line of advantages.jsonl, resume the run (skillrl resume ${dir}) so that the update is made again, then export again.`;
  if (lost.unit === undefined) {
    return `${where}; it is cut before its unit's name, so the rows of that update could not be written and cannot be counted. ${fix}`;
  }
  return `${where}. It held the advantages of unit ${lost.unit}, so ${lost.rows} rows (of its ${lost.sources} ${of}) could not be written. ${fix}`;
}

/** What an export left out, in words; throws when nothing could be exported in the asked-for layout. */
function notesOf(format: ExportFormat, method: string, counts: Counts, rows: number, dir: string): string[] {
  const completed = counts.lostUpdates.length > 0 && lastRunEnd(dir)?.status === 'completed';
  const lostNotes = counts.lostUpdates.map((l) => lostUpdateNote(l, method, dir, completed));
  if (counts.sourcesMissing > 0) {
    const n = counts.sourcesMissing;
    const what =
      method === 'evolve'
        ? `the candidates of ${n} ${n === 1 ? 'task' : 'tasks'} listed in advantages are not in candidates`
        : `${n} trained ${n === 1 ? 'trajectory' : 'trajectories'} listed in advantages ${n === 1 ? 'is' : 'are'} not in rollouts`;
    lostNotes.push(
      `${what} (a torn, damaged or unreadable line: see the other notes), so their rows could not be written and cannot be counted.`,
    );
  }
  const notes: string[] = counts.read.map((n) =>
    n.kind === 'torn'
      ? `${n.file}: an unfinished last line (${n.bytes} bytes) left out: a run still writing, or torn by a crash.`
      : n.kind === 'damaged'
        ? n.file.endsWith('.jsonl') || n.file.endsWith('.gz')
          ? `${n.file}: line ${n.lineNo} is not valid JSON and was left out.`
          : `${n.file}: record ${n.lineNo} is not valid JSON and was left out.`
        : `${n.file} could not be read and was left out: ${n.reason}`,
  );
  notes.push(...lostNotes);
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
    lostUpdates: [],
    sourcesMissing: 0,
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
  let fd: number;
  try {
    fd = openSync(temp, 'w');
  } catch (error) {
    throw outputError(path, error);
  }
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
    const notes = notesOf(format, manifest.method, counts, rows, dir);
    renameSync(temp, path);
    const rowsNotWritten = counts.lostUpdates.reduce((n, l) => n + l.rows, 0);
    return { path, format, rows, sources: counts.sources, notes, rowsNotWritten };
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(temp, { force: true });
    throw outputError(path, error);
  }
}

const OUTPUT_CAUSES: Record<string, string> = {
  EROFS: 'the file system is read-only (EROFS)',
  EACCES: 'permission denied (EACCES)',
  EPERM: 'permission denied (EPERM)',
  ENOSPC: 'the disk is full (ENOSPC)',
  EDQUOT: 'the disk quota is used up (EDQUOT)',
  ENOTDIR: 'a part of the path is a file, not a directory (ENOTDIR)',
  ENOENT: 'its folder does not exist (ENOENT)',
};

/** A refused write of the output file, with the path, the cause in words and `--out` (a run may be read-only). */
function outputError(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  const cause = code ? OUTPUT_CAUSES[code] : undefined;
  if (!cause) return error;
  return new InvalidArgumentError(
    '--out',
    `cannot write ${path}: ${cause}. Nothing was written; write the rows elsewhere with --out <file>.`,
    { cause: error },
  );
}
