// What the two policy diagnostics share: the agent a run starts from, and an action sequence replayed as the
// skill-free decisions the agent would have faced (a trajectory a tfjs trainer can train on or score).
// @skillrl/policy-tfjs's public API only.
import { createRng } from '@skillrl/core';
import { createSkillReadingAgent, vocabularyFromAdapter } from '@skillrl/policy-tfjs';

/**
 * The untrained skill-reading agent of a run with this seed and no agent options: the orchestrator seeds each
 * component by role from the run seed (`component:agent`), with the adapter's vocabulary.
 */
export async function startingAgent(adapter, seed) {
  const vocabulary = await vocabularyFromAdapter(adapter);
  return createSkillReadingAgent({ vocabulary, seed: createRng(seed).seedFor('component:agent') });
}

/**
 * `actions` played from the start of `task` without a skill: a trajectory whose steps carry the agent's
 * skill-free decision record (`info.policy`, with the action as the chosen candidate). Records are inputs
 * (candidates, words, features), not weights: any agent with the same vocabulary and config can score them.
 * A step whose action is not among the agent's candidates carries no record (the trainer masks it).
 */
export async function skillFreeTrajectory(adapter, agent, task, actions, id = `${task.id}:replay`) {
  const env = await adapter.createEnvironment(task);
  let observation = await env.reset();
  const steps = [];
  let won = false;
  for (const [index, action] of actions.entries()) {
    const d = agent.distribution({
      task,
      condition: 0,
      observation,
      history: steps,
      stepIndex: index,
      admissibleActions: env.admissibleActions(),
    });
    const chosen = d.candidates.indexOf(action);
    const result = await env.step(action);
    steps.push({
      index,
      observation,
      action,
      reward: result.reward,
      done: result.done,
      ...(chosen >= 0 && { info: { policy: { ...d.record, chosen } } }),
    });
    observation = result.observation;
    if (result.done) {
      won = result.reward > 0;
      break;
    }
  }
  await env.close?.();
  return {
    id,
    taskId: task.id,
    family: task.family,
    condition: 0,
    steps,
    reward: won ? 1 : 0,
    verdict: { score: won ? 1 : 0, passed: won },
  };
}
