import type { Rng, Task, Trajectory, Verdict } from '@skillrl/core';
import { answerOf } from '@skillrl/verifiers';
import { answerPart } from './answer-parsing.js';
import type { GeneratedFamily, GeneratedInstance, Profile } from './generated-family.js';

const NAMES = [
  'Alice',
  'Bob',
  'Carol',
  'Dave',
  'Erin',
  'Frank',
  'Gina',
  'Hank',
  'Iris',
  'Jack',
  'Kira',
  'Leo',
];

/** A statement about the islanders; `true` in an assignment means "is a knight". */
export type Statement =
  | { kind: 'is'; who: number; knight: boolean }
  | { kind: 'both'; a: number; b: number; knight: boolean }
  | { kind: 'either'; a: number; b: number; knight: boolean }
  | { kind: 'same'; a: number; b: number }
  | { kind: 'different'; a: number; b: number }
  | { kind: 'implies'; a: number; b: number; knight: boolean }
  | { kind: 'exactly-one'; a: number; b: number };

export function statementHolds(s: Statement, knights: readonly boolean[]): boolean {
  switch (s.kind) {
    case 'is':
      return knights[s.who] === s.knight;
    case 'both':
      return knights[s.a] === s.knight && knights[s.b] === s.knight;
    case 'either':
      return knights[s.a] === s.knight || knights[s.b] === s.knight;
    case 'same':
      return knights[s.a] === knights[s.b];
    case 'different':
      return knights[s.a] !== knights[s.b];
    case 'implies':
      return !knights[s.a] || knights[s.b] === s.knight;
    case 'exactly-one':
      return knights[s.a] !== knights[s.b];
  }
}

function kind(knight: boolean, plural = false): string {
  return knight ? (plural ? 'knights' : 'a knight') : plural ? 'knaves' : 'a knave';
}

function render(s: Statement, speaker: number, names: readonly string[]): string {
  const who = (i: number) => (i === speaker ? 'I' : (names[i] as string));
  const be = (i: number) => (i === speaker ? 'am' : 'is');
  switch (s.kind) {
    case 'is':
      return `${who(s.who)} ${be(s.who)} ${kind(s.knight)}`;
    case 'both':
      return `${who(s.a)} and ${who(s.b)} are both ${kind(s.knight, true)}`;
    case 'either':
      return `At least one of ${names[s.a]} and ${names[s.b]} is ${kind(s.knight)}`;
    case 'same':
      return `${names[s.a]} and ${names[s.b]} are the same kind`;
    case 'different':
      return `${names[s.a]} and ${names[s.b]} are different kinds`;
    case 'implies':
      return `If ${names[s.a]} is a knight, then ${names[s.b]} is ${kind(s.knight)}`;
    case 'exactly-one':
      return `Exactly one of ${names[s.a]} and ${names[s.b]} is a knight`;
  }
}

function randomStatement(rng: Rng, n: number, speaker: number): Statement {
  const a = rng.int(n);
  let b = rng.int(n - 1);
  if (b >= a) b++;
  const knight = rng.bernoulli(0.5);
  const kinds = ['is', 'is', 'both', 'either', 'same', 'different', 'implies', 'exactly-one'] as const;
  const k = rng.pick(kinds);
  if (k === 'is') return { kind: 'is', who: rng.bernoulli(0.25) ? speaker : a === speaker ? b : a, knight };
  if (k === 'same' || k === 'different' || k === 'exactly-one') return { kind: k, a, b };
  return { kind: k, a, b, knight };
}

/** Every assignment (bit i set = person i is a knight) under which each speaker's claim matches their kind. */
export function consistentAssignments(statements: ReadonlyArray<readonly Statement[]>): boolean[][] {
  const n = statements.length;
  const found: boolean[][] = [];
  for (let mask = 0; mask < 1 << n; mask++) {
    const knights = Array.from({ length: n }, (_, i) => ((mask >> i) & 1) === 1);
    // A knight's statements are all true; a knave's all false.
    const ok = statements.every((said, i) => said.every((s) => statementHolds(s, knights) === knights[i]));
    if (ok) found.push(knights);
  }
  return found;
}

/**
 * Knights and knaves: knights always tell the truth, knaves always lie. seen: 2–3 islanders; unseen: 4–5 (the
 * head count keeps them apart). Each islander makes one statement, true for knights and false for knaves under
 * a hidden assignment; statements are redrawn until brute force over all 2^n assignments leaves exactly one.
 * The answer is `Name: knight, Name: knave, …` in the order introduced.
 */
function generate(rng: Rng, profile: Profile): GeneratedInstance {
  const n = profile === 'seen' ? rng.int(2, 4) : rng.int(4, 6);
  const names = rng.shuffle(NAMES).slice(0, n);
  for (;;) {
    const truth = Array.from({ length: n }, () => rng.bernoulli(0.5));
    const statements = truth.map((isKnight, speaker) => {
      for (;;) {
        const s = randomStatement(rng, n, speaker);
        if (statementHolds(s, truth) === isKnight) return [s];
      }
    });
    const solutions = consistentAssignments(statements);
    if (solutions.length !== 1) continue;
    const said = statements.map((s, i) => `${names[i]} says: "${render(s[0] as Statement, i, names)}."`);
    const prompt =
      `On an island, knights always tell the truth and knaves always lie. You meet ${n} islanders: ${names.join(', ')}.\n` +
      `${said.join('\n')}\n` +
      'Who is a knight and who is a knave? Answer after "FINAL ANSWER:" as "Name: knight, Name: knave, …".';
    const answer = names.map((name, i) => `${name}: ${truth[i] ? 'knight' : 'knave'}`).join(', ');
    return {
      key: `${n}|${said.join('|')}`,
      prompt,
      answer,
      metadata: { names, knights: truth, profile },
    };
  }
}

const ROLE = /^(knights?|knaves?)$/;
const NEGATION = /^(not|isn't|isnt|aren't|arent)$/;

/**
 * Reads an answer tolerant of order, case and phrasing: `Alice: knight, Bob: knave`, `Alice is a knight and
 * Bob is a knave`, `Alice and Carol are knights; Bob is a knave`, `Knights: Alice, Carol. Knaves: Bob`, and
 * `Bob is not a knight`. When the first role word comes before the first name, roles label the names after
 * them; otherwise a role word labels the names since the previous role word. Returns name (lower case) → knight?;
 * a name labelled both ways maps to `null`.
 */
export function parseKnightsAnswer(text: string, names: readonly string[]): Map<string, boolean | null> {
  const known = new Set(names.map((n) => n.toLowerCase()));
  const words =
    answerPart(text)
      .toLowerCase()
      .match(/[a-z']+/g) ?? [];
  const result = new Map<string, boolean | null>();
  const assign = (name: string, knight: boolean) => {
    const before = result.get(name);
    result.set(name, before === undefined || before === knight ? knight : null);
  };
  const firstRole = words.findIndex((w) => ROLE.test(w));
  const firstName = words.findIndex((w) => known.has(w));
  const prefix = firstRole >= 0 && (firstName < 0 || firstRole < firstName);
  let pending: string[] = [];
  let current: boolean | undefined;
  let negated = false;
  for (const word of words) {
    if (known.has(word)) {
      if (prefix && current !== undefined) assign(word, current);
      else pending.push(word);
      negated = false;
    } else if (NEGATION.test(word)) {
      negated = true;
    } else if (ROLE.test(word)) {
      const knight = word.startsWith('knight') !== negated;
      negated = false;
      if (prefix) current = knight;
      else {
        for (const name of pending) assign(name, knight);
        pending = [];
      }
    }
  }
  return result;
}

function verify(task: Task, trajectory: Trajectory): Verdict {
  const names = task.metadata?.names as string[];
  const knights = task.metadata?.knights as boolean[];
  const read = parseKnightsAnswer(answerOf(trajectory), names);
  const wrong: string[] = [];
  const missing: string[] = [];
  names.forEach((name, i) => {
    const given = read.get(name.toLowerCase());
    if (given === undefined || given === null) missing.push(name);
    else if (given !== knights[i]) wrong.push(name);
  });
  const correct = wrong.length === 0 && missing.length === 0;
  const reason = correct
    ? 'every islander identified correctly'
    : [
        wrong.length ? `wrong: ${wrong.join(', ')}` : '',
        missing.length ? `not (clearly) identified: ${missing.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; ');
  return { score: correct ? 1 : 0, passed: correct, reason, details: { wrong, missing } };
}

export const knightsFamily: GeneratedFamily = {
  name: 'knights',
  generate,
  verifier: { name: 'knights-assignment', verify },
  skill: {
    name: 'knights-and-knaves',
    description:
      'Decide who is a knight (always truthful) and who is a knave (always lies) from their statements.',
    families: ['knights'],
    body: [
      '# Knights and knaves',
      '',
      '1. Suppose the first speaker is a knight: their statement is true. Follow what that forces for the others.',
      '2. Check each forced conclusion against every statement; a contradiction rules the supposition out.',
      '3. Otherwise suppose the speaker is a knave: their statement is false (negate it), and repeat.',
      '4. With few islanders, list all assignments and keep the one where every knight speaks truly and every',
      '   knave falsely.',
      '5. End with `FINAL ANSWER: Name: knight, Name: knave, …` naming everyone.',
      '',
    ].join('\n'),
  },
  steps: [
    'suppose the first speaker is a knight',
    'suppose the first speaker is a knave',
    'follow what the statement forces',
    'negate a knave statement',
    'look for a contradiction',
    'check every statement against the assignment',
    'list all assignments when few islanders',
    'state FINAL ANSWER naming everyone',
  ],
};
