import type { MethodBatchField } from '@skillrl/core';

/**
 * The batch fields Skill-R1's generation step (`runSkillR1Generation`) fills on every estimate, the method
 * inputs first (an option two fields replace is reported once, under them), each with where its values come
 * from. A runner reads them with an estimator's `batchOverrides` to refuse options the step replaces; a test
 * of the orchestrator checks them against the batches the step really builds.
 */
export const SKILL_R1_GENERATION_BATCH_FIELDS: readonly MethodBatchField[] = [
  {
    field: 'interGenerationWeights',
    source: 'evolve.lambda, default 1; 0 under variant vanilla-grpo',
    instead: 'set evolve.lambda instead',
  },
  {
    field: 'previousMeans',
    source: "each task's mean reward over the previous generation's candidates, measured by the run",
  },
  {
    field: 'carriedMeans',
    source: "the mean reward of each task's carried skill in the previous generation, measured by the run",
  },
  { field: 'scores', source: "each candidate's mean reward" },
  { field: 'groupIds', source: 'the task id' },
  { field: 'instanceIds', source: 'the task id' },
  { field: 'generations', source: 'the generation' },
];
