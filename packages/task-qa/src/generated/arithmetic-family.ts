import type { Rng } from '@skillrl/core';
import { answerOf, quote } from '@skillrl/verifiers';
import { answerPart, lastInteger } from './answer-parsing.js';
import type { GeneratedFamily, GeneratedInstance, Profile } from './generated-family.js';

const PEOPLE: Array<[string, string, string]> = [
  ['Ada', 'she', 'her'],
  ['Ben', 'he', 'him'],
  ['Chloe', 'she', 'her'],
  ['Dev', 'he', 'him'],
  ['Elena', 'she', 'her'],
  ['Farid', 'he', 'him'],
  ['Grace', 'she', 'her'],
  ['Hiro', 'he', 'him'],
  ['Imani', 'she', 'her'],
  ['Jonas', 'he', 'him'],
];
const ITEMS = [
  'apples',
  'marbles',
  'stickers',
  'books',
  'coins',
  'pencils',
  'stamps',
  'shells',
  'cards',
  'eggs',
];
const MULTIPLIERS: Record<number, string> = { 2: 'doubles', 3: 'triples', 4: 'quadruples' };
const CAP = 100_000;

type Op = 'add' | 'sub' | 'mul' | 'div';

/**
 * Parameter ranges. seen: 2–3 operations on numbers 2–20; unseen: 4–5 operations on numbers 2–50 — the
 * operation count alone keeps the two apart.
 */
const RANGES: Record<Profile, { steps: [number, number]; max: number }> = {
  seen: { steps: [2, 3], max: 20 },
  unseen: { steps: [4, 5], max: 50 },
};

function generate(rng: Rng, profile: Profile): GeneratedInstance {
  const range = RANGES[profile];
  const [name, he, him] = rng.pick(PEOPLE);
  const items = rng.pick(ITEMS);
  const steps = rng.int(range.steps[0], range.steps[1] + 1);
  const sentences: string[] = [];
  const trace: string[] = [];
  let value: number;
  if (rng.bernoulli(0.5)) {
    const boxes = rng.int(2, 10);
    const each = rng.int(2, range.max + 1);
    value = boxes * each;
    sentences.push(`${name} has ${boxes} boxes with ${each} ${items} in each box.`);
    trace.push(`${boxes}*${each}`);
  } else {
    value = rng.int(5, range.max * 3 + 1);
    sentences.push(`${name} has ${value} ${items}.`);
    trace.push(String(value));
  }
  for (let s = 0; s < steps; s++) {
    const options: Op[] = ['add', 'sub', 'mul', 'div'].filter((op) => {
      if (op === 'sub') return value > 1;
      if (op === 'mul') return value * 2 <= CAP;
      if (op === 'div') return [2, 3, 4, 5].some((k) => value % k === 0 && value >= k * 2);
      return true;
    }) as Op[];
    const op = rng.pick(options);
    if (op === 'add') {
      const k = rng.int(2, range.max + 1);
      sentences.push(
        rng.bernoulli(0.5) ? `Then ${he} buys ${k} more.` : `Then a friend gives ${him} ${k} more ${items}.`,
      );
      value += k;
      trace.push(`+${k}`);
    } else if (op === 'sub') {
      const k = rng.int(1, Math.min(value - 1, range.max * 2) + 1);
      sentences.push(
        rng.bernoulli(0.5) ? `Then ${he} gives away ${k} ${items}.` : `Then ${he} loses ${k} of them.`,
      );
      value -= k;
      trace.push(`-${k}`);
    } else if (op === 'mul') {
      const ks = [2, 3, 4].filter((k) => value * k <= CAP);
      const k = rng.pick(ks);
      sentences.push(`Then the number of ${items} ${MULTIPLIERS[k]}.`);
      value *= k;
      trace.push(`*${k}`);
    } else {
      const ks = [2, 3, 4, 5].filter((k) => value % k === 0 && value >= k * 2);
      const k = rng.pick(ks);
      sentences.push(
        `Then ${he} shares them equally among ${k} people, ${him}self included, and keeps one share.`,
      );
      value /= k;
      trace.push(`/${k}`);
    }
  }
  sentences.push(`How many ${items} does ${name} have now?`);
  const prompt = `${sentences.join(' ')}\nGive the answer as a whole number after "FINAL ANSWER:".`;
  return {
    key: `${profile}|${sentences.join(' ')}`,
    prompt,
    answer: value,
    metadata: { steps, operations: trace.join(' '), profile },
  };
}

export const arithmeticFamily: GeneratedFamily = {
  name: 'arithmetic',
  generate,
  verifier: {
    name: 'arithmetic-exact',
    verify(task, trajectory) {
      const expected = Number(task.answer);
      const part = answerPart(answerOf(trajectory));
      const given = lastInteger(part);
      const correct = given === expected;
      return {
        score: correct ? 1 : 0,
        passed: correct,
        reason:
          given === undefined
            ? `no whole number found in ${quote(part)}`
            : `${given} ${correct ? 'equals' : 'is not'} the answer${correct ? '' : ` ${expected}`}`,
        details: { expected, given: given ?? null },
      };
    },
  },
  skill: {
    name: 'multi-step-arithmetic',
    description:
      'Solve word problems that change a quantity over several steps; use for arithmetic story questions.',
    families: ['arithmetic'],
    body: [
      '# Multi-step arithmetic word problems',
      '',
      '1. Write down the starting quantity (boxes × items per box when the story uses boxes).',
      '2. Apply each event in order, one line per step: more (+), away or lost (−), doubles/triples (×),',
      '   shared equally among k people keeping one share (÷ k).',
      '3. Check every intermediate result is a whole number; if not, re-read the step.',
      '4. End with `FINAL ANSWER: <number>`, digits only.',
      '',
    ].join('\n'),
  },
  steps: [
    'write the starting quantity',
    'multiply boxes by items per box',
    'add what is gained',
    'subtract what is given away',
    'multiply when it doubles or triples',
    'divide by the number of equal shares',
    'check the result is a whole number',
    'state FINAL ANSWER with digits only',
  ],
};
