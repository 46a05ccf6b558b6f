// The rule of the editor's update (own candidates, never a fallback's; rejected replies), and its replay on
// resume for an editor that cannot save its state.
export { editorUpdateInput } from './editor-update.js';
export { episodeSummary } from './episode-summary.js';
// The batch fields the step fills on every estimate, with where each one's values come from.
export { SKILL_R1_GENERATION_BATCH_FIELDS } from './generation-batch-fields.js';
// What a generation's update had to learn from (the no-signal guard reads `signal.void`).
export { type GenerationSignal, generationSignal, identicalToParent } from './generation-signal.js';
export type {
  SkillR1Fallback,
  SkillR1Proposal,
  SkillR1ProposalAttempt,
  SkillR1ProposalStats,
} from './propose-candidates.js';
export { rejectedReplies } from './propose-candidates.js';
export { type ReplaySkillR1UpdatesInput, replaySkillR1Updates } from './replay-skill-r1-updates.js';
// The final evaluation: fresh episodes under each task's carried skill (and without it, paired), its metrics.
export {
  planSkillR1FinalEvaluation,
  type SkillR1FinalEvaluationInput,
  skillR1FinalMetrics,
} from './skill-r1-final-evaluation.js';
export {
  createSkillR1State,
  runSkillR1Generation,
  type SkillR1AdvantageRow,
  type SkillR1EpisodeRequest,
  type SkillR1GenerationInput,
  type SkillR1GenerationResult,
  type SkillR1Ports,
  type SkillR1State,
  type SkillR1TaskOutcome,
  type SkillR1TaskState,
  type SkillR1UnscoredTask,
} from './skill-r1-generation.js';
// A Skill-R1-family run's shape (G, K, M, λ, the final evaluation) with its defaults and each baseline's fixed values.
export {
  SKILL_R1_RUN_DEFAULTS,
  type SkillR1RunSection,
  type SkillR1RunSettings,
  skillR1RunSettings,
} from './skill-r1-run-settings.js';
// What a run's summary reports: the final reward, each generation's mean, the editor's calls and failures.
export {
  skillR1GenerationMeans,
  skillR1ProposalTotals,
  skillR1SummaryMetrics,
} from './skill-r1-summary-metrics.js';
