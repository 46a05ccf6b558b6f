/**
 * @skillrl/task-household — an ALFWorld-like text household: six task types, ALFWorld's grammar and texts,
 * a seeded generator, an expert planner, and a loader that runs real ALFWorld game files on the same engine.
 */
import { createHouseholdAdapter } from './adapter/create-household-adapter.js';

// The adapter (default export), its verifier, skills and step vocabulary.
export * from './adapter/index.js';
// The engine: game model, environment, TextWorld grammar, PDDL formulas.
export * from './engine/index.js';
// Task types and their metric labels (Pick, Look, Clean, Heat, Cool, Pick2).
export * from './families.js';

// Seeded game generation and the seen/unseen goal split.
export * from './generator/index.js';

// Real ALFWorld game files (game.tw-pddl).
export * from './loader/index.js';

// The expert planner and the random baseline.
export * from './planner/index.js';

// Object and receptacle types, rooms.
export * from './vocabulary/index.js';

const household = createHouseholdAdapter();
export default household;
