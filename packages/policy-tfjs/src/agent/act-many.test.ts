import type { AgentContext, Skill, Task, TrajectoryStep } from '@skillrl/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DecisionRecord, decodeDecisionRecord } from '../model/decision-record.js';
import { scoreDecision } from '../model/score-decision.js';
import { busyParameters } from '../testing/busy-parameters.js';
import { household, householdAgent } from '../testing/household-fixture.js';
import {
  type PlayEpisodeOptions,
  playEpisode,
  playEpisodesTogether,
  skillFor,
} from '../testing/play-episode.js';
import type { SkillReadingAgent } from './create-skill-reading-agent.js';

let skills: Skill[];
let tasks: Task[];

/** Eight household episodes: four tasks, each with and without its skill. */
const episodes = (agent: SkillReadingAgent, tag: string): PlayEpisodeOptions[] =>
  tasks.flatMap((task, k) =>
    [skillFor(skills, task.family), undefined].map((skill, c) => ({
      adapter: household,
      agent,
      task,
      skill,
      seed: `act-many/${tag}/${k}/${c}`,
      maxSteps: 25,
    })),
  );

/**
 * Every context an episode's agent saw, with the history as it stood (copied) at that decision, and the
 * record the agent made of it then (from the episode's live, growing history: its per-episode state).
 */
async function contextsOf(agent: SkillReadingAgent, tag: string): Promise<AgentContext[]> {
  const seen: AgentContext[] = [];
  const recorder = {
    act: async (context: AgentContext) => {
      const action = await agent.act(context);
      seen.push({ ...context, history: [...context.history], made: action.info?.policy } as AgentContext);
      return action;
    },
  };
  for (const e of episodes(agent, tag)) await playEpisode({ ...e, agent: recorder });
  return seen;
}

beforeAll(async () => {
  skills = await household.skills();
  tasks = await household.load({ split: 'train', limit: 4, seed: 23 });
});

describe('a round of decisions (distributions, actMany)', () => {
  it("gives every context exactly its own distribution, the unbatched scorer's", async () => {
    const agent = await householdAgent(3);
    agent.setParameters(busyParameters(agent.parameters, 'act-many-weights'));
    const contexts = await contextsOf(agent, 'dist');
    expect(contexts.some((c) => c.skill) && contexts.some((c) => !c.skill)).toBe(true);
    // Rounds of 8 decisions from different episodes and steps, as a collector forms them.
    for (let at = 0; at < contexts.length; at += 8) {
      const round = contexts.slice(at, at + 8);
      const together = agent.distributions(round);
      round.forEach((context, i) => {
        const alone = agent.distribution(context);
        const got = together[i]?.logProbs as Float64Array;
        expect(got).toHaveLength(alone.logProbs.length);
        for (let c = 0; c < got.length; c++) {
          expect(Math.abs((got[c] as number) - (alone.logProbs[c] as number))).toBeLessThanOrEqual(1e-9);
        }
        expect(together[i]?.record).toEqual(alone.record);
        // Read from scratch (a copied history) as during the episode, incrementally; and what the episode
        // stored decodes, after a JSON round trip, to the record the agent made then.
        const made = (context as AgentContext & { made: object }).made;
        const kept = agent.decisionRecord(made) as DecisionRecord;
        expect({ ...alone.record, chosen: 0 }).toEqual({ ...kept, chosen: 0 });
        const decoded = decodeDecisionRecord(JSON.parse(JSON.stringify(made)), agent.vocabulary);
        expect(decoded).toEqual(kept);
        expect(together[i]?.memory).toEqual(alone.memory);
        // Without the agent's caches (embedding means, per-episode history state): the same numbers.
        const plain = scoreDecision(agent.parameters, alone.record, agent.config.dim, alone.memory);
        expect(Array.from(alone.logProbs)).toEqual(Array.from(plain));
      });
    }
  });

  it('plays lockstep episodes into the trajectories one-by-one play gives, across two runs', async () => {
    const weights = busyParameters((await householdAgent(5)).parameters, 'lockstep-weights');
    const fresh = async () => {
      const agent = await householdAgent(5);
      agent.setParameters(weights);
      return agent;
    };
    const batchedAgent = await fresh();
    const together = await playEpisodesTogether(batchedAgent, episodes(batchedAgent, 'play'));
    const alone = [];
    const oneByOne = await fresh();
    for (const e of episodes(oneByOne, 'play')) alone.push(await playEpisode(e));
    expect(together.reduce((a, t) => a + t.steps.length, 0)).toBeGreaterThan(100);
    expect(JSON.stringify(together)).toBe(JSON.stringify(alone));
    const again = await fresh();
    expect(JSON.stringify(await playEpisodesTogether(again, episodes(again, 'play')))).toBe(
      JSON.stringify(together),
    );
  });

  it('reads a history array that was rewritten, and new weights, afresh', async () => {
    const agent = await householdAgent(7);
    const contexts = await contextsOf(agent, 'rewrite');
    const long = contexts.filter((c) => c.history.length >= 6 && c.skill);
    const [a, b] = [long[0], long.at(-1)] as [AgentContext, AgentContext];
    expect(a.task.id).not.toBe(b.task.id);
    // One array object, grown along episode a, then holding episode b's steps instead.
    const live: TrajectoryStep[] = [];
    for (const step of a.history.slice(0, 4)) {
      live.push(step);
      agent.distribution({ ...a, history: live });
    }
    // Longer than before: only comparing the actions shows that the steps are another episode's.
    live.splice(0, live.length, ...b.history.slice(0, 6));
    const rewritten = agent.distribution({ ...b, history: live });
    const copied = agent.distribution({ ...b, history: [...live] });
    expect(rewritten.record).toEqual(copied.record);
    expect(Array.from(rewritten.logProbs)).toEqual(Array.from(copied.logProbs));
    // New weights: the cached embedding means are dropped with the old ones.
    const before = agent.distribution(b);
    agent.setParameters(busyParameters(agent.parameters, 'rewrite-weights'));
    const after = agent.distribution(b);
    const plain = scoreDecision(agent.parameters, after.record, agent.config.dim, after.memory);
    expect(Array.from(after.logProbs)).toEqual(Array.from(plain));
    expect(Array.from(after.logProbs)).not.toEqual(Array.from(before.logProbs));
  });
});
