/**
 * The estimator scaffold's task model: household's expert plan with a random action now and then. A random
 * agent never wins a household game in ten steps, so every reward is 0 and every estimator gives 0; this
 * one wins about half its episodes, so a group's rewards differ and estimators can differ.
 */
export const NOISY_EXPERT_SOURCE = `// A task model for household (@skillrl/task-household) that needs no model and no API key: at each step it
// takes a random admissible action with probability \`noise\`, else the next action of household's expert
// plan from where the episode stands (planActions, on a copy of the environment replayed from the history).
// It wins some episodes and loses others, so the rewards of a group differ and advantages are not all 0.
// Named in run.yaml as { package: "./noisy-expert.mjs", options: { noise: 0.5 } }.
import { createRng, InvalidArgumentError } from '@skillrl/core';
import household, { planActions } from '@skillrl/task-household';

export function createAgent(options = {}) {
  const noise = options.noise ?? 0.5;
  if (typeof noise !== 'number' || !(noise >= 0 && noise <= 1)) {
    throw new InvalidArgumentError('agent.options.noise', \`expected a number from 0 to 1, got \${noise}\`);
  }
  return {
    name: 'noisy-expert',
    async act(context) {
      const actions = context.admissibleActions ?? [];
      const rng = createRng(\`\${context.task.id}:\${context.seed ?? 0}:\${context.stepIndex}\`);
      if (actions.length > 0 && rng.float() < noise) return { action: rng.pick(actions) };
      const env = household.createEnvironment(context.task);
      env.reset();
      for (const step of context.history) env.step(step.action);
      try {
        const [next] = planActions(env);
        if (next !== undefined) return { action: next };
      } catch {
        // No plan from here (the game cannot be won any more): act at random.
      }
      return { action: actions.length > 0 ? rng.pick(actions) : 'look' };
    },
  };
}
`;
