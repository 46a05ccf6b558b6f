import type { Rng, Task, Trajectory, Verdict, Verifier } from '@skillrl/core';
import { answerOf } from '@skillrl/verifiers';
import { checkExpressionAnswer } from './check-expression-answer.js';
import type { GeneratedFamily, GeneratedInstance, Profile } from './generated-family.js';
import { solveCountdown } from './solve-countdown.js';

function expressionVerifier(name: string): Verifier {
  return {
    name,
    verify(task: Task, trajectory: Trajectory): Verdict {
      const numbers = task.metadata?.numbers as number[];
      const target = task.metadata?.target as number;
      const check = checkExpressionAnswer(answerOf(trajectory), numbers, target);
      return {
        score: check.correct ? 1 : 0,
        passed: check.correct,
        reason: check.reason,
        details: {
          expression: check.expression,
          value: check.value ?? null,
          numbersUsed: check.numbersUsed ?? null,
          numbers,
          target,
        },
      };
    },
  };
}

function promptFor(numbers: readonly number[], target: number): string {
  return (
    `Use the numbers ${numbers.join(', ')} exactly once each, with + - * / and parentheses, to make ${target}. ` +
    'Write only the expression after "FINAL ANSWER:".'
  );
}

interface Node {
  value: number;
  text: string;
  loose: boolean;
}

/** A random integer-valued expression over all the numbers: its value is a target with a known solution. */
function randomExpression(rng: Rng, numbers: readonly number[]): Node | undefined {
  let items: Node[] = numbers.map((n) => ({ value: n, text: String(n), loose: false }));
  while (items.length > 1) {
    const order = rng.shuffle(items.map((_, k) => k));
    const a = items[order[0] as number] as Node;
    const b = items[order[1] as number] as Node;
    const ops = ['+', '-', '*', '/'].filter(
      (op) => (op !== '-' || a.value > b.value) && (op !== '/' || (b.value > 1 && a.value % b.value === 0)),
    );
    const op = rng.pick(ops);
    const left = (op === '*' || op === '/') && a.loose ? `(${a.text})` : a.text;
    const right = op !== '+' && (b.loose || (op === '/' && b.text.includes(' '))) ? `(${b.text})` : b.text;
    const value =
      op === '+'
        ? a.value + b.value
        : op === '-'
          ? a.value - b.value
          : op === '*'
            ? a.value * b.value
            : a.value / b.value;
    const node = { value, text: `${left} ${op} ${right}`, loose: op === '+' || op === '-' };
    items = [...items.filter((_, k) => k !== order[0] && k !== order[1]), node];
  }
  return items[0];
}

/**
 * Countdown. seen: 4 numbers from 1–12, target 10–200; unseen: 5 numbers from 1–25, target 100–999 (the
 * number count keeps them apart). The target is the value of a random expression over all the numbers, so a
 * solution always exists; the stored answer is that expression, and any other correct one is accepted.
 */
function generateCountdown(rng: Rng, profile: Profile): GeneratedInstance {
  const [count, top, low, high] = profile === 'seen' ? [4, 12, 10, 200] : [5, 25, 100, 999];
  for (;;) {
    const numbers = Array.from({ length: count }, () => rng.int(1, top + 1));
    const tree = randomExpression(rng, numbers);
    if (!tree || tree.value < low || tree.value > high || numbers.includes(tree.value)) continue;
    return {
      key: `${[...numbers].sort((a, b) => a - b).join(',')}->${tree.value}`,
      prompt: promptFor(numbers, tree.value),
      answer: tree.text,
      metadata: { numbers, target: tree.value, profile },
    };
  }
}

/** Solutions by sorted hand: there are only 715 hands of four numbers from 1–13, so each is solved once. */
const SOLVED_24 = new Map<string, string | null>();

function solve24(numbers: readonly number[]): string | undefined {
  const key = [...numbers].sort((a, b) => a - b).join(',');
  let solution = SOLVED_24.get(key);
  if (solution === undefined) {
    solution = solveCountdown(key.split(',').map(Number), 24) ?? null;
    SOLVED_24.set(key, solution);
  }
  return solution ?? undefined;
}

/**
 * The 24 game. seen: 4 numbers from 1–9; unseen: 4 numbers from 1–13 with at least one of 10–13. Only
 * solvable hands are kept (exhaustive search); the stored answer is the solver's expression.
 */
function generateGame24(rng: Rng, profile: Profile): GeneratedInstance {
  for (;;) {
    const numbers = Array.from({ length: 4 }, () => rng.int(1, (profile === 'seen' ? 9 : 13) + 1));
    if (profile === 'unseen' && !numbers.some((n) => n >= 10)) continue;
    const solution = solve24(numbers);
    if (!solution) continue;
    return {
      key: [...numbers].sort((a, b) => a - b).join(','),
      prompt: promptFor(numbers, 24),
      answer: solution,
      metadata: { numbers, target: 24, profile },
    };
  }
}

const PROCEDURE = [
  '1. List the numbers; every one must be used exactly once.',
  '2. Work backwards from the target: which two values could combine to reach it (a product, a sum)?',
  '3. Try promising pairs first (multiply large numbers, make small factors from differences).',
  '4. Check the final expression by evaluating it step by step and counting the numbers it uses.',
  '5. End with `FINAL ANSWER: <expression>` using only + - * / and parentheses.',
  '',
].join('\n');

const STEPS = [
  'list the numbers to use',
  'work backwards from the target',
  'try multiplying the largest numbers',
  'make a small factor from a difference',
  'combine two numbers into one',
  'evaluate the expression to check it',
  'count that each number is used once',
  'state FINAL ANSWER as an expression',
];

export const countdownFamily: GeneratedFamily = {
  name: 'countdown',
  generate: generateCountdown,
  verifier: expressionVerifier('countdown-expression'),
  skill: {
    name: 'countdown-numbers',
    description:
      'Reach a target number from given numbers with + - * / using each number once; use for countdown puzzles.',
    families: ['countdown'],
    body: `# Countdown numbers\n\n${PROCEDURE}`,
  },
  steps: STEPS,
};

export const game24Family: GeneratedFamily = {
  name: 'game24',
  generate: generateGame24,
  verifier: expressionVerifier('game24-expression'),
  skill: {
    name: 'game-of-24',
    description:
      'Make 24 from four numbers with + - * / using each number once; fractions on the way are allowed.',
    families: ['game24'],
    body: `# The 24 game\n\nFractions are allowed on the way (8 / (3 - 8 / 3) = 24).\n\n${PROCEDURE}`,
  },
  steps: STEPS,
};
