export { PlanError, type PlanOptions, planActions } from './plan-actions.js';
export { type RandomEpisode, runRandomEpisode } from './random-agent.js';
