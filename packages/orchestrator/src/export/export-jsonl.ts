import { createWriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import type { JsonObject, SkillCandidate, Trajectory } from '@skillrl/core';
import { formatSkill, InvalidArgumentError, openRunStore } from '@skillrl/core';
import type { RunManifest } from '../run/run-session.js';

/** One training row for an external trainer. */
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

interface AdvantageRecord {
  key: string;
  unit: string;
  rows: { taskId?: string; candidate?: number; trajectoryId?: string; advantage: number; reward?: number }[];
}

/** The editor's prompt as text: a string as is, chat messages as `role: content` blocks. */
function promptText(prompt: unknown, taskId: string): string {
  if (typeof prompt === 'string') return prompt;
  if (Array.isArray(prompt)) {
    return prompt
      .map((m: { role?: string; content?: unknown }) => `${m.role ?? 'user'}: ${String(m.content ?? '')}`)
      .join('\n\n');
  }
  return `task ${taskId}`;
}

function readOnce<T extends { key: string }>(records: readonly T[]): T[] {
  // A record appended twice (a unit interrupted after writing it) counts once.
  return [...new Map(records.map((r) => [r.key, r])).values()];
}

/**
 * The rows the trained component learned from: for `evolve`, each skill candidate (the editor's prompt
 * context and its SKILL.md) with its Skill-R1 advantage; for `internalize`, each action of each training
 * rollout (the observation it acted on, with the skill when one was injected) with its rollout's advantage.
 */
export function exportRows(runDir: string): ExportRow[] {
  const dir = resolve(runDir);
  const store = openRunStore(dir, { onWarning: () => {} });
  try {
    const manifestText = store.readFile('run.json');
    if (!manifestText) {
      throw new InvalidArgumentError(
        'run directory',
        `${dir} has no run.json; is it a skillrl run directory?`,
      );
    }
    const manifest = JSON.parse(manifestText) as RunManifest;
    const advantages = readOnce(store.read<AdvantageRecord>('advantages'));
    const rows: ExportRow[] = [];
    if (manifest.method === 'evolve') {
      const candidates = new Map(
        readOnce(store.read<{ key: string; candidates: SkillCandidate[] }>('candidates')).map((r) => [
          r.key,
          r,
        ]),
      );
      for (const record of advantages) {
        for (const row of record.rows) {
          const proposal = candidates.get(`${record.unit}/${row.taskId}`)?.candidates[row.candidate ?? 0];
          if (!proposal) continue;
          const prompt = promptText(proposal.info?.prompt, row.taskId ?? '');
          rows.push({
            prompt,
            completion: proposal.text || formatSkill(proposal.skill),
            logProbs: proposal.logProbs ?? null,
            tokenIds: proposal.tokenIds ?? null,
            advantage: row.advantage,
            meta: {
              unit: record.unit,
              taskId: row.taskId ?? '',
              candidate: row.candidate ?? 0,
              reward: row.reward ?? 0,
            },
          });
        }
      }
      return rows;
    }
    const trajectories = new Map(store.read<Trajectory>('rollouts').map((t) => [t.id, t]));
    for (const record of advantages) {
      for (const row of record.rows) {
        const t = trajectories.get(row.trajectoryId ?? '');
        if (!t) continue;
        for (const step of t.steps) {
          rows.push({
            prompt: step.observation,
            completion: step.action,
            logProbs: step.logProbs ?? (step.logProb !== undefined ? [step.logProb] : null),
            tokenIds: step.tokenIds ?? null,
            advantage: row.advantage,
            meta: {
              unit: record.unit,
              trajectoryId: t.id,
              taskId: t.taskId,
              step: step.index,
              condition: t.condition,
              ...(t.skill ? { skill: t.skill.name } : {}),
            },
          });
        }
      }
    }
    return rows;
  } finally {
    store.close();
  }
}

/** Writes `exportRows(runDir)` as JSONL to `out` (default `<run>/export.jsonl`); returns the path and count. */
export async function exportJsonl(runDir: string, out?: string): Promise<{ path: string; rows: number }> {
  const rows = exportRows(runDir);
  const path = resolve(out ?? join(runDir, 'export.jsonl'));
  await new Promise<void>((resolveWrite, reject) => {
    const stream = createWriteStream(path);
    stream.on('error', reject);
    for (const row of rows) stream.write(`${JSON.stringify(row)}\n`);
    stream.end(() => resolveWrite());
  });
  return { path, rows: rows.length };
}
