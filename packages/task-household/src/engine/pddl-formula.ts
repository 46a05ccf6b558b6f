import { InvalidArgumentError } from '@skillrl/core';
import type { SExpr } from './s-expression.js';

/** A PDDL goal formula: the subset ALFWorld goals use (and, or, not, exists, forall, atoms). */
export type PddlFormula =
  | { op: 'atom'; predicate: string; args: readonly string[] }
  | { op: 'and' | 'or'; args: readonly PddlFormula[] }
  | { op: 'not'; arg: PddlFormula }
  | { op: 'exists' | 'forall'; vars: ReadonlyArray<{ name: string; type?: string }>; body: PddlFormula };

/** What a formula is evaluated against. Names and predicates arrive lower-cased. */
export interface FormulaModel {
  /** Constants of a PDDL type (`receptacle`, `object`, `agent`, `location`), or all when untyped. */
  domain(type: string | undefined): readonly string[];
  atom(predicate: string, args: readonly string[]): boolean;
}

function parseVars(list: SExpr): Array<{ name: string; type?: string }> {
  if (!Array.isArray(list))
    throw new InvalidArgumentError('goal', `expected a variable list, got ${String(list)}`);
  const out: Array<{ name: string; type?: string }> = [];
  let pending: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const tok = list[i];
    if (typeof tok !== 'string') throw new InvalidArgumentError('goal', 'a variable list holds only symbols');
    if (tok === '-') {
      const type = list[++i];
      if (typeof type !== 'string')
        throw new InvalidArgumentError('goal', 'a `-` in a variable list needs a type');
      for (const name of pending) out.push({ name: name.toLowerCase(), type: type.toLowerCase() });
      pending = [];
    } else {
      pending.push(tok.replace(/,$/, ''));
    }
  }
  for (const name of pending) out.push({ name: name.toLowerCase() });
  return out;
}

/** Turns a goal s-expression into a formula. */
export function parseFormula(expr: SExpr): PddlFormula {
  if (!Array.isArray(expr) || expr.length === 0) {
    throw new InvalidArgumentError('goal', `expected a parenthesised formula, got ${JSON.stringify(expr)}`);
  }
  const head = String(expr[0]).toLowerCase();
  switch (head) {
    case 'and':
    case 'or':
      return { op: head, args: expr.slice(1).map(parseFormula) };
    case 'not':
      return { op: 'not', arg: parseFormula(expr[1] as SExpr) };
    case 'exists':
    case 'forall':
      return { op: head, vars: parseVars(expr[1] as SExpr), body: parseFormula(expr[2] as SExpr) };
    default:
      return {
        op: 'atom',
        predicate: head,
        args: expr.slice(1).map((a) => {
          if (typeof a !== 'string')
            throw new InvalidArgumentError('goal', `atom ${head} has a nested argument`);
          return a.toLowerCase();
        }),
      };
  }
}

/** Evaluates a formula; variables bind by backtracking over their type's constants. */
export function evaluateFormula(
  formula: PddlFormula,
  model: FormulaModel,
  env: Map<string, string> = new Map(),
): boolean {
  switch (formula.op) {
    case 'atom':
      return model.atom(
        formula.predicate,
        formula.args.map((a) => (a.startsWith('?') ? (env.get(a) ?? a) : a)),
      );
    case 'and':
      return formula.args.every((f) => evaluateFormula(f, model, env));
    case 'or':
      return formula.args.some((f) => evaluateFormula(f, model, env));
    case 'not':
      return !evaluateFormula(formula.arg, model, env);
    case 'exists':
    case 'forall': {
      const want = formula.op === 'exists';
      const bind = (i: number): boolean => {
        if (i === formula.vars.length) return evaluateFormula(formula.body, model, env) === want;
        const v = formula.vars[i] as { name: string; type?: string };
        for (const c of model.domain(v.type)) {
          env.set(v.name, c);
          if (bind(i + 1)) {
            env.delete(v.name);
            return true;
          }
        }
        env.delete(v.name);
        return false;
      };
      return want ? bind(0) : !bind(0);
    }
  }
}

/** Every atom of a formula, with its polarity, for reading a goal's shape. */
export function formulaAtoms(
  formula: PddlFormula,
  positive = true,
): Array<{ predicate: string; args: readonly string[]; positive: boolean }> {
  switch (formula.op) {
    case 'atom':
      return [{ predicate: formula.predicate, args: formula.args, positive }];
    case 'and':
    case 'or':
      return formula.args.flatMap((f) => formulaAtoms(f, positive));
    case 'not':
      return formulaAtoms(formula.arg, !positive);
    case 'exists':
    case 'forall':
      return formulaAtoms(formula.body, positive);
  }
}

/** Variables a formula quantifies, outermost first. */
export function formulaVariables(formula: PddlFormula): Array<{ name: string; type?: string }> {
  switch (formula.op) {
    case 'atom':
      return [];
    case 'and':
    case 'or':
      return formula.args.flatMap(formulaVariables);
    case 'not':
      return formulaVariables(formula.arg);
    case 'exists':
    case 'forall':
      return [...formula.vars, ...formulaVariables(formula.body)];
  }
}
