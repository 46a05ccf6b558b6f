import { InvalidArgumentError } from '@skillrl/core';

/** A parsed PDDL s-expression: a symbol or a list. */
export type SExpr = string | SExpr[];

/** Parses PDDL text (comments start with `;`) into nested lists. Throws on unbalanced parentheses. */
export function parseSExpressions(text: string, what = 'PDDL'): SExpr[] {
  const stack: SExpr[][] = [[]];
  const re = /;[^\n]*|\(|\)|[^\s();]+/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const tok = m[0];
    if (tok.startsWith(';')) continue;
    if (tok === '(') {
      stack.push([]);
    } else if (tok === ')') {
      const done = stack.pop();
      const parent = stack[stack.length - 1];
      if (!done || !parent) throw new InvalidArgumentError(what, `unbalanced ")" at offset ${m.index}`);
      parent.push(done);
    } else {
      (stack[stack.length - 1] as SExpr[]).push(tok);
    }
  }
  if (stack.length !== 1) throw new InvalidArgumentError(what, `${stack.length - 1} unclosed "(" at the end`);
  return stack[0] as SExpr[];
}
