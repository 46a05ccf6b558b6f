import { chatTurnsOf, type JsonObject, type Trajectory } from '@skillrl/core';
import { type RowSource, stepAdvantageOf } from './row-source.js';

/**
 * One verl agent-loop row (the fields of verl's `AgentLoopOutput`): the prompt's token ids, then the response
 * — the model's tokens (mask 1) and, between turns, the tokens the environment added (mask 0: the end of the
 * assistant turn, the next observation or tool result, the next generation prompt) — with the sampling
 * policy's log-probs (0 under mask 0) and the advantage.
 */
export interface VerlRow {
  prompt_ids: number[];
  response_ids: number[];
  response_mask: number[];
  /** Per response token; 0 where the mask is 0. Absent when a turn came back without log-probs. */
  response_logprobs?: number[];
  /**
   * The advantage for every masked token: the trajectory's; a per-turn row's is its step's own when the update
   * gave step-level credit (a multi-turn row then lists them in `extra_fields.step_advantages`).
   */
  advantage: number;
  reward_score: number;
  /** Chat messages in the sequence: the last request's plus the final reply. */
  num_turns: number;
  extra_fields: JsonObject;
}

export type VerlResult =
  | { kind: 'rows'; rows: VerlRow[]; perTurn: boolean }
  | { kind: 'skipped'; reason: 'no-record' | 'no-token-ids' };

const startsWith = (ids: readonly number[], prefix: readonly number[]) =>
  ids.length >= prefix.length && prefix.every((id, i) => ids[i] === id);

/**
 * The verl rows of one trained trajectory. When each turn's prompt is the previous prompt plus the reply
 * plus what the environment added (the history only grows), the whole episode is one multi-turn row, as
 * verl's own tool agent loop builds it. Otherwise — the agent re-rendered earlier messages (the admissible
 * actions move to the newest observation, a history window drops turns, tools change between turns) — a
 * single sequence would claim a context the model never saw, so each turn is its own row (prompt = that
 * turn's prompt ids, response = its reply, all masked in).
 */
export function verlRows(t: Trajectory, source: RowSource): VerlResult {
  const turns = chatTurnsOf(t.steps);
  if (turns.length === 0 || turns.some((turn) => !turn)) return { kind: 'skipped', reason: 'no-record' };
  const prompts: number[][] = [];
  const replies: number[][] = [];
  for (let i = 0; i < t.steps.length; i++) {
    const prompt = turns[i]?.promptTokenIds;
    const reply = t.steps[i]?.tokenIds;
    if (!prompt || !reply) return { kind: 'skipped', reason: 'no-token-ids' };
    prompts.push(prompt);
    replies.push(reply);
  }
  const logprobsOf = (i: number): number[] | undefined => {
    const lp = t.steps[i]?.logProbs;
    return lp && lp.length === replies[i]?.length ? lp : undefined;
  };
  const withLogprobs = t.steps.every((_, i) => logprobsOf(i) !== undefined);
  const base: JsonObject = {
    unit: source.unit,
    trajectory_id: t.id,
    task_id: t.taskId,
    family: t.family,
    condition: t.condition,
    ...(t.skill ? { skill: t.skill.name } : {}),
  };
  const messagesAt = (i: number) => (turns[i]?.messages.length ?? 0) + 1;

  let chained = true;
  for (let i = 1; i < prompts.length && chained; i++) {
    chained = startsWith(prompts[i] as number[], [
      ...(prompts[i - 1] as number[]),
      ...(replies[i - 1] as number[]),
    ]);
  }
  if (chained) {
    const response: number[] = [];
    const mask: number[] = [];
    const logprobs: number[] = [];
    let position = (prompts[0] as number[]).length;
    for (let i = 0; i < prompts.length; i++) {
      const prompt = prompts[i] as number[];
      // What the environment added since the last reply: everything of this prompt past what is already in.
      for (const id of prompt.slice(position)) {
        response.push(id);
        mask.push(0);
        logprobs.push(0);
      }
      const reply = replies[i] as number[];
      response.push(...reply);
      for (let k = 0; k < reply.length; k++) mask.push(1);
      if (withLogprobs) logprobs.push(...(logprobsOf(i) as number[]));
      position = prompt.length + reply.length;
    }
    return {
      kind: 'rows',
      perTurn: false,
      rows: [
        {
          prompt_ids: prompts[0] as number[],
          response_ids: response,
          response_mask: mask,
          ...(withLogprobs ? { response_logprobs: logprobs } : {}),
          advantage: source.advantage,
          reward_score: t.reward,
          num_turns: messagesAt(prompts.length - 1),
          extra_fields: {
            ...base,
            turns: prompts.length,
            // One sequence holds every turn: the per-step credit travels beside it for a trainer that reads it.
            ...(source.stepAdvantages ? { step_advantages: [...source.stepAdvantages] } : {}),
          },
        },
      ],
    };
  }
  return {
    kind: 'rows',
    perTurn: true,
    rows: prompts.map((prompt, i) => {
      const reply = replies[i] as number[];
      const lp = logprobsOf(i);
      return {
        prompt_ids: prompt,
        response_ids: reply,
        response_mask: reply.map(() => 1),
        ...(lp ? { response_logprobs: lp } : {}),
        advantage: stepAdvantageOf(source, i),
        reward_score: t.reward,
        num_turns: messagesAt(i),
        extra_fields: { ...base, turn: t.steps[i]?.index ?? i, turns: prompts.length },
      };
    }),
  };
}
