import { answerPart } from './answer-parsing.js';
import {
  ExpressionSyntaxError,
  evaluateExpression,
  numbersIn,
  parseExpression,
} from './arithmetic-expression.js';
import { formatRational } from './rational.js';

export interface ExpressionCheck {
  correct: boolean;
  reason: string;
  /** The expression text that was judged. */
  expression: string;
  value?: string;
  numbersUsed?: number[];
}

function sortedKey(numbers: readonly number[]): string {
  return [...numbers].sort((a, b) => a - b).join(',');
}

/**
 * Picks the expression out of a reply: the part after `FINAL ANSWER:` (else the last non-empty line), without
 * surrounding backticks, `$` or a final period; from `expr = 24` or `24 = expr`, the side with an operator.
 */
export function expressionOf(reply: string): string {
  const part = answerPart(reply);
  const lines = part.split('\n').filter((line) => line.trim() !== '');
  let text = (lines[lines.length - 1] ?? '').trim();
  text = text
    .replace(/^[`$]+|[`$]+$/g, '')
    .replace(/\.$/, '')
    .trim();
  if (text.includes('=')) {
    const sides = text.split('=').map((side) => side.trim());
    text = sides.find((side) => /[+\-*/×÷·\u2212]/.test(side)) ?? (sides[0] as string);
  }
  return text;
}

/**
 * Countdown rules: the expression must use every given number exactly once (as written literals) and evaluate
 * exactly — in fractions, so `8 / (3 - 8 / 3)` makes 24 — to the target.
 */
export function checkExpressionAnswer(
  reply: string,
  numbers: readonly number[],
  target: number,
): ExpressionCheck {
  const expression = expressionOf(reply);
  let tree: ReturnType<typeof parseExpression>;
  try {
    tree = parseExpression(expression);
  } catch (error) {
    if (!(error instanceof ExpressionSyntaxError)) throw error;
    return { correct: false, reason: `not an arithmetic expression: ${error.message}`, expression };
  }
  const used = numbersIn(tree);
  if (sortedKey(used) !== sortedKey(numbers)) {
    return {
      correct: false,
      reason: `uses ${used.join(', ') || 'no numbers'}; must use ${numbers.join(', ')} exactly once each`,
      expression,
      numbersUsed: used,
    };
  }
  const value = evaluateExpression(tree);
  if (value === undefined)
    return { correct: false, reason: 'divides by zero', expression, numbersUsed: used };
  const correct = value.d === 1n && value.n === BigInt(target);
  return {
    correct,
    reason: `${expression} = ${formatRational(value)}${correct ? '' : `, not ${target}`}`,
    expression,
    value: formatRational(value),
    numbersUsed: used,
  };
}
