export * from './engine/index.js';
export * from './families.js';
export * from './generator/index.js';
export * from './planner/index.js';
