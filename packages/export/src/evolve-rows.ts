import {
  type ChatTurnMessage,
  formatSkill,
  InvalidArgumentError,
  readRunStream,
  type SkillCandidate,
} from '@skillrl/core';
import type { CandidateAdvantageRow } from './check-advantage-record.js';
import { collectingNotes, type ExportCounts, lostUpdateOf } from './export-counts.js';
import type { ExportFormat } from './export-format.js';
import type { ExportRow } from './export-row.js';
import { readAdvantages } from './read-advantages.js';
import type { TrlRow } from './trl-rows.js';

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

/**
 * An evolve (Skill-R1) run's rows: one per skill candidate the skill editor proposed and the update scored
 * (from `candidates.jsonl`, with its advantage from `advantages.jsonl`). No `verl`: the editor's proposals
 * carry no prompt token ids.
 */
export function* evolveRows(dir: string, format: ExportFormat, counts: ExportCounts): Generator<object> {
  if (format === 'verl') {
    throw new InvalidArgumentError(
      '--format',
      "verl rows need token ids of the prompt and the reply; an evolve run records its skill editor's proposals without prompt token ids. Use --format trl (chat messages) or --format jsonl.",
    );
  }
  const wanted = new Map<string, CandidateAdvantageRow[]>();
  for (const record of readAdvantages(dir, counts, 'candidate')) {
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
    collectingNotes(counts),
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
      const proposal = record.candidates[row.candidate];
      if (!proposal) continue;
      if (row.advantage === null) {
        counts.noAdvantage++;
        continue;
      }
      counts.sources++;
      const completion = proposal.text || formatSkill(proposal.skill);
      const meta = { unit, taskId: row.taskId, candidate: row.candidate, reward: row.reward ?? 0 };
      if (format === 'jsonl') {
        yield {
          prompt: promptText(proposal.info?.prompt, row.taskId),
          completion,
          logProbs: proposal.logProbs ?? null,
          tokenIds: proposal.tokenIds ?? null,
          advantage: row.advantage,
          meta,
        } satisfies ExportRow;
      } else {
        yield {
          prompt: promptMessages(proposal.info?.prompt, row.taskId),
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
