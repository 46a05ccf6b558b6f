export { mean } from './mean.js';
export { type PairedDifference, pairedByTask, type TestOutcomes } from './paired-by-task.js';
// Paired statistics (Student's t intervals, paired differences by seed or by task, a seeded bootstrap): the
// bench tables, a skill's measured utility, the demo's and `skillrl serve`'s comparisons share them.
export * as pairedStats from './paired-stats.js';
export { type GroupOutcomeMetrics, groupScores, type ScoreGroups } from './score-groups.js';
// A skill's measured utility (with − without, paired by task or, for one task, by episode) and its metadata.
export { pairedUtility, type SkillUtility, utilityMetadata } from './skill-utility.js';
