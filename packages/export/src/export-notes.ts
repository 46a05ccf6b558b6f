import { InvalidArgumentError, lastRunEnd } from '@skillrl/core';
import type { ExportCounts, LostUpdate } from './export-counts.js';
import type { ExportFormat } from './export-format.js';

const NO_RECORD =
  'the steps carry no chat record (step.info.chat): the agent is not the openai agent of @skillrl/rollout, or it ran with recordChat: false';
const NO_IDS =
  'no token ids came back: run the openai agent with `returnTokenIds: true` (vLLM >= 0.10.2 answers `return_token_ids` with `prompt_token_ids` and `choices[].token_ids`) and, for log-probs, `logprobs: true`';

/** An unreadable advantages record in words: what happened, the rows it cost, and what to do. */
function lostUpdateNote(lost: LostUpdate, method: string, dir: string, completed: boolean): string {
  const where =
    lost.how.kind === 'torn'
      ? `${lost.file}: its last line is unfinished (${lost.how.bytes} bytes, no newline): torn by a crash, or still being written`
      : `${lost.file}: line ${lost.how.line} ${lost.how.reason} (damaged)`;
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

/**
 * What an export left out, in words; throws when nothing could be exported in the asked-for layout (a
 * `trl` export of steps without chat records, a `verl` export without token ids), saying what to change.
 */
export function exportNotes(
  format: ExportFormat,
  method: string,
  counts: ExportCounts,
  rows: number,
  dir: string,
): string[] {
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
  if (counts.errored > 0) {
    const n = counts.errored;
    lostNotes.push(
      `${n} ${n === 1 ? 'trajectory' : 'trajectories'} listed in advantages ended in an error (a model call that failed past its retries, an environment or verifier that threw) and ${n === 1 ? 'was' : 'were'} left out: an errored rollout measured nothing about the policy, its reward is a placeholder. Each rollout is read as its latest record, so one run again on resume is exported as it finally ended.`,
    );
  }
  if (counts.noAdvantage > 0) {
    const n = counts.noAdvantage;
    const one = n === 1;
    const what =
      method === 'evolve' ? (one ? 'candidate' : 'candidates') : one ? 'trajectory' : 'trajectories';
    lostNotes.push(
      `${n} ${what} listed in advantages ${one ? 'has' : 'have'} no advantage (null: the update left ${one ? 'it' : 'them'} out) and ${one ? 'was' : 'were'} not exported.`,
    );
  }
  if (counts.stepMismatch > 0) {
    lostNotes.push(
      `${counts.stepMismatch} of the trained trajectories have step advantages whose count differs from their steps; their rows carry the trajectory's advantage instead.`,
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
      // Without chat records trl has nothing to write either: only the jsonl rows are left to point to.
      `verl rows are token ids, and none of the ${trained} trained trajectories has them for every turn: ${why}. ${why === NO_IDS ? '--format trl gives the chat messages.' : '--format jsonl gives (observation, action) rows.'}`,
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
