export {
  type GeneratedGame,
  type GenerateGameOptions,
  generateGame,
  HOUSEHOLD_SPLITS,
  type HouseholdSplit,
  isHouseholdSplit,
} from './generate-game.js';
export { type GoalCombo, goalCombos, isHeldOut } from './goal-combos.js';
