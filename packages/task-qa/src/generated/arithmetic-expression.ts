import { add, div, mul, type Rational, rational, sub } from './rational.js';

/** A parsed arithmetic expression over non-negative integer literals. */
export type Expression =
  | { kind: 'number'; value: number }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/'; left: Expression; right: Expression };

export class ExpressionSyntaxError extends Error {
  readonly position: number;
  constructor(message: string, position: number) {
    super(`${message} at position ${position}`);
    this.name = 'ExpressionSyntaxError';
    this.position = position;
  }
}

const SYMBOLS: Record<string, '+' | '-' | '*' | '/' | '(' | ')'> = {
  '+': '+',
  '-': '-',
  '\u2212': '-',
  '*': '*',
  '×': '*',
  '·': '*',
  '/': '/',
  '÷': '/',
  '(': '(',
  ')': ')',
  '[': '(',
  ']': ')',
};

type Token = { type: 'number'; value: number; at: number } | { type: 'symbol'; value: string; at: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (/\s/.test(ch)) {
      i++;
    } else if (/\d/.test(ch)) {
      let j = i;
      while (j < text.length && /\d/.test(text[j] as string)) j++;
      if (j - i > 9) throw new ExpressionSyntaxError('number too long', i);
      tokens.push({ type: 'number', value: Number(text.slice(i, j)), at: i });
      i = j;
    } else if (SYMBOLS[ch]) {
      tokens.push({ type: 'symbol', value: SYMBOLS[ch] as string, at: i });
      i++;
    } else {
      throw new ExpressionSyntaxError(`unexpected character ${JSON.stringify(ch)}`, i);
    }
  }
  return tokens;
}

/**
 * Parses `+ - * /` (also `× · ÷ −`), parentheses (or brackets) and non-negative integers with the usual
 * precedence, left to right. No unary minus, no decimals, no functions: the countdown rules allow only the
 * given numbers. A small recursive-descent parser — never `eval`.
 */
export function parseExpression(text: string): Expression {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = () => tokens[pos];
  const end = () => (tokens.length ? (tokens[tokens.length - 1] as Token).at + 1 : 0);

  const factor = (): Expression => {
    const token = peek();
    if (!token) throw new ExpressionSyntaxError('expected a number or "("', end());
    pos++;
    if (token.type === 'number') return { kind: 'number', value: token.value };
    if (token.value === '(') {
      const inner = sum();
      const close = peek();
      if (close?.value !== ')') throw new ExpressionSyntaxError('expected ")"', close ? close.at : end());
      pos++;
      return inner;
    }
    throw new ExpressionSyntaxError(`expected a number or "(", got "${token.value}"`, token.at);
  };
  const product = (): Expression => {
    let left = factor();
    for (let t = peek(); t && (t.value === '*' || t.value === '/'); t = peek()) {
      pos++;
      left = { kind: 'binary', op: t.value, left, right: factor() };
    }
    return left;
  };
  const sum = (): Expression => {
    let left = product();
    for (let t = peek(); t && (t.value === '+' || t.value === '-'); t = peek()) {
      pos++;
      left = { kind: 'binary', op: t.value, left, right: product() };
    }
    return left;
  };

  if (tokens.length === 0) throw new ExpressionSyntaxError('empty expression', 0);
  const tree = sum();
  const rest = peek();
  if (rest) throw new ExpressionSyntaxError(`unexpected "${String(rest.value)}"`, rest.at);
  return tree;
}

/** Exact value; `undefined` when it divides by zero. */
export function evaluateExpression(expression: Expression): Rational | undefined {
  if (expression.kind === 'number') return rational(BigInt(expression.value));
  const left = evaluateExpression(expression.left);
  const right = evaluateExpression(expression.right);
  if (!left || !right) return undefined;
  switch (expression.op) {
    case '+':
      return add(left, right);
    case '-':
      return sub(left, right);
    case '*':
      return mul(left, right);
    case '/':
      return div(left, right);
  }
}

/** The integer literals, left to right. */
export function numbersIn(expression: Expression): number[] {
  if (expression.kind === 'number') return [expression.value];
  return [...numbersIn(expression.left), ...numbersIn(expression.right)];
}
