import type { Agent, AgentAction, AgentContext } from '@skillrl/core';

/**
 * An agent that can decide for several contexts at once: one decision of each of several episodes, so a
 * local policy takes one matrix product per round instead of one per decision. An optional capability
 * beside core's `Agent`: the collector uses it when present and calls `act` otherwise.
 *
 * Contract: entry i of `actMany(contexts)` is what `act(contexts[i])` would return, whatever else is in the
 * round (a sampling agent draws each decision from its context's `seed`), so batching changes no trajectory.
 */
export interface BatchedAgent extends Agent {
  actMany(contexts: readonly AgentContext[]): Promise<AgentAction[]>;
}

export function isBatchedAgent(agent: Agent): agent is BatchedAgent {
  return typeof (agent as Partial<BatchedAgent>).actMany === 'function';
}

interface Pending {
  context: AgentContext;
  resolve: (action: AgentAction) => void;
  reject: (error: unknown) => void;
}

const nextTurn: (run: () => void) => void =
  typeof setImmediate === 'function' ? (run) => setImmediate(run) : (run) => setTimeout(run, 0);

/**
 * An `Agent` whose `act` calls are gathered into rounds for `agent.actMany`: every decision asked for before
 * the event loop's next turn joins the round. Episodes whose environment answers without I/O step in
 * lockstep, so a round holds one decision of each episode in flight; one waiting on I/O joins a later round,
 * and no round waits for it.
 *
 * When `actMany` rejects, the round's decisions are retried one by one through `act`, so a failure lands on
 * the episode whose decision failed (as it would without batching), not on every episode of the round.
 */
export function decisionRounds(agent: BatchedAgent): Agent {
  let pending: Pending[] = [];
  const flush = () => {
    const round = pending;
    pending = [];
    const settle = (p: Pending, action: Promise<AgentAction>) => action.then(p.resolve, p.reject);
    let many: Promise<AgentAction[]>;
    try {
      many = agent.actMany(round.map((p) => p.context));
    } catch (error) {
      many = Promise.reject(error);
    }
    many.then(
      (actions) => {
        if (!Array.isArray(actions) || actions.length !== round.length) {
          const got = Array.isArray(actions) ? `${actions.length} actions` : typeof actions;
          const error = new TypeError(`actMany returned ${got} for ${round.length} contexts`);
          for (const p of round) p.reject(error);
          return;
        }
        round.forEach((p, i) => {
          p.resolve(actions[i] as AgentAction);
        });
      },
      () => {
        for (const p of round) {
          let one: Promise<AgentAction>;
          try {
            one = agent.act(p.context);
          } catch (error) {
            one = Promise.reject(error);
          }
          settle(p, one);
        }
      },
    );
  };
  return {
    ...(agent.name !== undefined ? { name: agent.name } : {}),
    act(context) {
      return new Promise<AgentAction>((resolve, reject) => {
        pending.push({ context, resolve, reject });
        if (pending.length === 1) nextTurn(flush);
      });
    },
  };
}
