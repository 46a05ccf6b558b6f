export { mean } from './mean.js';
export { type GroupOutcomeMetrics, groupScores, type ScoreGroups } from './score-groups.js';
