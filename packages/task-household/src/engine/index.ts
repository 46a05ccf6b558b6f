export { ALFRED_TWL2, alfredGrammar } from './alfred-twl2.js';
export type { GameInit, GameObject, GameReceptacle, HouseholdGame, PddlBinding } from './game.js';
export { describeGoal, familyState, type HouseholdGoal, type ObjectState } from './goal.js';
export {
  type CommandTemplate,
  Grammar,
  type GrammarRule,
  parseGrammar,
  type RenderContext,
} from './grammar.js';
export {
  DEFAULT_MAX_STEPS,
  HouseholdEnvironment,
  type HouseholdEnvironmentOptions,
  NOTHING_HAPPENS,
} from './household-environment.js';
export { evaluateFormula, type FormulaModel, type PddlFormula, parseFormula } from './pddl-formula.js';
export { parseSExpressions, type SExpr } from './s-expression.js';
