/** A model-free task model for smoke runs: uniform over the admissible actions, seeded by task and step. */
export const RANDOM_AGENT_SOURCE = `// A task model that picks uniformly among the admissible actions, seeded by the task and the step: a
// baseline that needs no model and no API key. Named in run.yaml as { package: "./random-agent.mjs" }.
import { createRng } from '@skillrl/core';

export default {
  name: 'random',
  async act(context) {
    const actions = context.admissibleActions ?? [];
    if (actions.length === 0) return { action: 'noop' };
    const rng = createRng(\`\${context.task.id}:\${context.seed ?? 0}:\${context.stepIndex}\`);
    return { action: rng.pick(actions) };
  },
};
`;
