/**
 * @skillrl/eval — evaluation over @skillrl/orchestrator: a config's agent or a run's trained policy on a
 * split, with and without skills, and exported skills measured on a config's tasks. Nothing in the methods'
 * loops uses it; `skillrl eval` and `skillrl skills test` (@skillrl/cli) call it.
 */

// A config's task model on its tasks (or another split), with and without each family's skill.
export {
  type ErrorCounts,
  type EvaluateOptions,
  type Evaluation,
  evaluate,
  type FamilyEvaluation,
} from './evaluate.js';
// A run's trained policy: restored from its latest checkpoint, or rebuilt by replaying its updates.
export {
  type EvaluateRunOptions,
  evaluateRun,
  isRunDirectory,
  type RunEvaluation,
} from './evaluate-run.js';
// The tasks an evaluation runs on, loaded as the run loads them.
export { type EvaluationTasks, evaluationTasks } from './evaluation-tasks.js';
// Past the config's error budget (`health`): an evaluation stops as a run does, and writes nothing.
export { type EvaluationHealthDetails, EvaluationHealthError } from './evaluation-health-error.js';
// A folder of skills measured on a config's tasks (`skillrl skills test`): paired utility into each SKILL.md.
export { type SkillTest, type SkillTestResult, testSkills } from './test-skills.js';
