import { describe, expect, it } from 'vitest';
import { evaluateFormula, type FormulaModel, parseFormula } from './pddl-formula.js';
import { parseSExpressions } from './s-expression.js';

const formula = (text: string) => parseFormula(parseSExpressions(text)[0] ?? []);

// A toy world: apple1 is hot and in sink1; apple2 is cold and in fridge1.
const facts = new Set([
  'in apple1 sink1',
  'in apple2 fridge1',
  'hot apple1',
  'type apple1 apple',
  'type apple2 apple',
]);
const model: FormulaModel = {
  domain: (type) =>
    type === 'receptacle' ? ['sink1', 'fridge1'] : type === 'object' ? ['apple1', 'apple2'] : [],
  atom: (p, args) => facts.has([p, ...args].join(' ')),
};

describe('PDDL goal formulas', () => {
  it('parses nested exists with typed variables and ignores comments', () => {
    const f = formula(
      '(exists (?r - receptacle) ; where\n (exists (?o - object) (and (hot ?o) (in ?o ?r))))',
    );
    expect(f.op).toBe('exists');
    expect(evaluateFormula(f, model)).toBe(true);
  });

  it('binds several variables at once and respects not / or / forall', () => {
    // Some apple is in some receptacle and not hot: apple2 in fridge1.
    expect(
      evaluateFormula(
        formula('(exists (?o - object ?r - receptacle) (and (in ?o ?r) (not (hot ?o))))'),
        model,
      ),
    ).toBe(true);
    // Every object is hot: apple2 is not.
    expect(evaluateFormula(formula('(forall (?o - object) (hot ?o))'), model)).toBe(false);
    // Every object is an apple.
    expect(evaluateFormula(formula('(forall (?o - object) (type ?o apple))'), model)).toBe(true);
    expect(evaluateFormula(formula('(or (hot apple2) (in apple1 fridge1))'), model)).toBe(false);
  });

  it('rejects unbalanced text', () => {
    expect(() => parseSExpressions('(and (a b)')).toThrow(/unclosed/);
    expect(() => parseSExpressions('(a))')).toThrow(/unbalanced/);
  });
});
