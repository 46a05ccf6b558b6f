export {
  checkHouseholdAdapterOptions,
  HOUSEHOLD_ADAPTER_OPTIONS,
} from './check-household-adapter-options.js';
export {
  ALFWORLD_SPLIT_SIZES,
  createHouseholdAdapter,
  type HouseholdAdapter,
  type HouseholdAdapterOptions,
  taskFromAlfworldGame,
} from './create-household-adapter.js';
export { householdSkills } from './household-skills.js';
export { householdVerifier } from './household-verifier.js';
export { stepVocabulary } from './step-vocabulary.js';
