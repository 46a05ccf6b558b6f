import type { MethodBatchField } from '@skillrl/core';

/**
 * The batch fields SKILLC's step (`runSkillcStep`) fills on every estimate, the method input first (an option
 * two fields replace is reported once, under it), each with where its values come from. A runner reads them
 * with an estimator's `batchOverrides` to refuse options the step replaces; a test of the orchestrator checks
 * them against the batches the step really builds.
 */
export const SKILLC_STEP_BATCH_FIELDS: readonly MethodBatchField[] = [
  {
    field: 'attributionStrengths',
    source:
      "SKILLC's λ_k of each rollout's skill type from the curriculum: 0 once the type retires, and under variants grpo, skill0 and d2skill-mixed",
    instead: 'set the base λ as internalize.curriculum.lambda; λ_k per type follows from the validations',
  },
  { field: 'scores', source: "each rollout's reward" },
  { field: 'groupIds', source: 'the task id' },
  { field: 'instanceIds', source: 'the task id' },
  { field: 'conditions', source: '1 with the skill in the prompt, 0 without' },
  { field: 'families', source: "the task's skill type" },
  { field: 'successes', source: "the verifier's verdict" },
  { field: 'lengths', source: "the episode's steps" },
  {
    field: 'stepRewards',
    source:
      "each step's environment reward, the last carrying what the verified score adds (core's stepRewardsOf)",
  },
  {
    field: 'stepKeys',
    source:
      "each step's anchor state: the environment's stateKey, else a hash of the observation (core's stateKeyOf)",
  },
];
