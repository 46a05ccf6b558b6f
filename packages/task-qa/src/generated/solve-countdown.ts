import { add, div, mul, type Rational, rational, sub } from './rational.js';

interface Item {
  value: Rational;
  text: string;
  /** Top-level operator of `text`, for deciding parentheses. */
  op: '+' | '-' | '*' | '/' | null;
}

function wrap(item: Item, parentOp: string, right: boolean): string {
  if (item.op === null) return item.text;
  const loose = item.op === '+' || item.op === '-';
  const needs =
    (parentOp === '*' || parentOp === '/') && loose
      ? true
      : right && (parentOp === '-' ? loose : parentOp === '/' ? !!item.op : false);
  return needs ? `(${item.text})` : item.text;
}

function combine(a: Item, b: Item, op: '+' | '-' | '*' | '/'): Item | undefined {
  const value =
    op === '+'
      ? add(a.value, b.value)
      : op === '-'
        ? sub(a.value, b.value)
        : op === '*'
          ? mul(a.value, b.value)
          : div(a.value, b.value);
  if (!value) return undefined;
  return { value, text: `${wrap(a, op, false)} ${op} ${wrap(b, op, true)}`, op };
}

/**
 * An expression that uses every number exactly once and equals `target` (fractions allowed on the way, as in
 * the 24 game), or `undefined` when there is none. Exhaustive: every pair, every operator, both orders.
 */
export function solveCountdown(numbers: readonly number[], target: number): string | undefined {
  const goal = rational(BigInt(target));
  const search = (items: Item[]): string | undefined => {
    if (items.length === 1) {
      const only = items[0] as Item;
      return only.value.n === goal.n && only.value.d === goal.d ? only.text : undefined;
    }
    for (let i = 0; i < items.length; i++) {
      for (let j = 0; j < items.length; j++) {
        if (i === j) continue;
        const rest = items.filter((_, k) => k !== i && k !== j);
        const a = items[i] as Item;
        const b = items[j] as Item;
        for (const op of ['+', '-', '*', '/'] as const) {
          // + and * commute: try each unordered pair once.
          if ((op === '+' || op === '*') && j < i) continue;
          const combined = combine(a, b, op);
          if (!combined) continue;
          const found = search([...rest, combined]);
          if (found) return found;
        }
      }
    }
    return undefined;
  };
  return search(numbers.map((n) => ({ value: rational(BigInt(n)), text: String(n), op: null })));
}
