import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeChatRequest, FaultKind } from '@skillrl/testkit';

export interface GaiaRow {
  task_id: string;
  Question: string;
  'Final answer': string;
}

export function readRows(example: string): GaiaRow[] {
  return readFileSync(join(example, 'data/validation/metadata.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as GaiaRow);
}

/**
 * What the fake model replies to each question, and the GAIA score that reply must get (worked out by hand
 * with the official rules: numbers after deleting `$ % ,`; lists element by element; strings without
 * whitespace and punctuation, lower-cased).
 */
export const REPLIES: Record<string, { reply: string; reward: number }> = {
  // "6" against "6": number rule → right. The reply's last line is the action.
  'skillrl-gaia-example-0001': {
    reply: 'The primes are 11, 13, 17, 19, 23 and 29.\nFINAL ANSWER: 6',
    reward: 1,
  },
  // "fe" against "Fe": string rule lower-cases both → right.
  'skillrl-gaia-example-0002': { reply: '<action>FINAL ANSWER: fe</action>', reward: 1 },
  // "$3,500" against "3500": number rule deletes "$" and "," → 3500 = 3500 → right.
  'skillrl-gaia-example-0003': { reply: 'FINAL ANSWER: $3,500', reward: 1 },
  // List rule: mercury = mercury, earth ≠ venus → wrong.
  'skillrl-gaia-example-0004': { reply: 'FINAL ANSWER: Mercury, Earth, Venus', reward: 0 },
  // 215 ≠ 205 → wrong (a skill that says to double-check fixes it, below).
  'skillrl-gaia-example-0005': { reply: 'FINAL ANSWER: 215', reward: 0 },
  // No FINAL ANSWER marker: the whole reply "ithinkitssydney" ≠ "canberra" → wrong.
  'skillrl-gaia-example-0006': { reply: "I think it's Sydney.", reward: 0 },
};

/** The first try of five questions is faulted, one kind each; every retry is answered. */
export const FAULT_PLAN: Record<string, FaultKind> = {
  'skillrl-gaia-example-0001': 'rate-limit',
  'skillrl-gaia-example-0002': 'server-error',
  'skillrl-gaia-example-0003': 'hang',
  'skillrl-gaia-example-0004': 'drop',
  'skillrl-gaia-example-0005': 'truncated-json',
};

/** The two skills the fake editor writes, in turn for each question. */
export const EDITOR_SKILLS = ['gaia-final-answer', 'gaia-double-check'] as const;

function text(request: FakeChatRequest): string {
  return (request.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
}

export function isEditorRequest(request: FakeChatRequest): boolean {
  return String(request.messages?.[0]?.content ?? '').startsWith('You are a skill editor');
}

/** The fixture question a request is about. */
export function questionOf(request: FakeChatRequest, rows: readonly GaiaRow[]): GaiaRow | undefined {
  const all = text(request);
  return rows.find((row) => all.includes(row.Question));
}

export function createFakeGaiaModel(rows: readonly GaiaRow[]) {
  const editorTurns = new Map<string, number>();
  return {
    respond(request: FakeChatRequest): string {
      const row = questionOf(request, rows);
      if (!row) return 'FINAL ANSWER: unknown question';
      if (isEditorRequest(request)) {
        const turn = editorTurns.get(row.task_id) ?? 0;
        editorTurns.set(row.task_id, turn + 1);
        const name = EDITOR_SKILLS[turn % 2] as string;
        const steps =
          name === 'gaia-double-check'
            ? [
                'Work the answer out.',
                'Double-check every calculation.',
                'Finish with FINAL ANSWER: <answer>.',
              ]
            : ['Work the answer out.', 'Finish with FINAL ANSWER: <answer>.'];
        return [
          'Here is the revised skill.',
          '',
          '```markdown',
          '---',
          `name: ${name}`,
          'description: How to answer a GAIA question. Use for every GAIA question.',
          '---',
          '',
          ...steps.map((s, i) => `${i + 1}. ${s}`),
          '```',
          '',
        ].join('\n');
      }
      // The task model: the scripted reply, except that a skill asking to double-check fixes the arithmetic.
      const system = String(request.messages?.[0]?.content ?? '');
      if (row.task_id === 'skillrl-gaia-example-0005' && system.includes('Double-check')) {
        return 'FINAL ANSWER: 205';
      }
      return REPLIES[row.task_id]?.reply ?? 'FINAL ANSWER: ?';
    },
  };
}
