// Profiles the trainer's update on the bench's batch: `node --cpu-prof` on the bundle of this file.
// Environment: PROFILE_REPS (timed updates, default 5), PROFILE_OPTIONS (JSON trainer options).
import household from '@skillrl/task-household';
import { initBackend } from '@skillrl/tensor-ops';
import { createSkillReadingAgent, createTfjsTrainer, vocabularyFromAdapter } from '../src/index.js';
import { trainingBatch } from './training-batch.js';

const SEED = 'policy-tfjs-bench';
const REPS = Number(process.env.PROFILE_REPS ?? 5);
const OPTIONS = JSON.parse(
  process.env.PROFILE_OPTIONS ??
    '{"lr":0.02,"miniBatches":4,"kl":{"kind":"k3","coef":0.001},"aggregation":"seq-mean-token-mean"}',
);

await initBackend({ prefer: 'wasm' });
const vocabulary = await vocabularyFromAdapter(household, { seed: SEED });
const agent = createSkillReadingAgent({ vocabulary, seed: 1 });
const skills = await household.skills();
const { trajectories, advantages } = await trainingBatch(agent, skills, SEED);
const decisions = trajectories.reduce((a, t) => a + t.steps.length, 0);
console.log(
  `batch: ${trajectories.length} episodes, ${decisions} decisions; options ${JSON.stringify(OPTIONS)}`,
);
const learner = createSkillReadingAgent({ vocabulary, parameters: agent.parameters });
const trainer = createTfjsTrainer(learner, OPTIONS);
await trainer.update({ trajectories, advantages });
for (let i = 0; i < REPS; i++) {
  const m = await trainer.update({ trajectories, advantages });
  const f = (k: string) => (m[k] as number).toFixed(1);
  console.log(`step ${f('step_ms')} ms: pack ${f('pack_ms')}, ref ${f('ref_ms')}, grad ${f('grad_ms')}`);
}
trainer.dispose();
