import { type ChatTurnMessage, chatTurnsOf, type JsonObject, type Trajectory } from '@skillrl/core';
import { type RowSource, stepAdvantageOf } from './row-source.js';

/**
 * One TRL-style conversational row (TRL's "prompt-completion" type in its conversational format): the
 * request's messages exactly as the agent sent them — system prompt (with the skill under condition 1),
 * task, history, the latest observation — the tools sent with them, and the reply as the endpoint returned
 * it; plus what an online/GRPO-style trainer needs beside: the advantage of the turn and, when the endpoint
 * returned them, the token ids and log-probs under the sampling policy.
 */
export interface TrlRow {
  prompt: ChatTurnMessage[];
  completion: ChatTurnMessage[];
  /** TRL's `tools` column: the function tools sent with the request (JSON Schema), when there were any. */
  tools?: JsonObject[];
  /**
   * The turn's advantage, as the trainer in the run got it: its step's own when the update gave step-level
   * credit (GiGPO's `stepAdvantages`), else its trajectory's, broadcast over the actions.
   */
  advantage: number;
  /** The trajectory's verified reward. */
  reward: number;
  /** The prompt as the server tokenized it (vLLM `prompt_token_ids`). */
  prompt_ids?: number[];
  /** The reply's token ids and per-token log-probs under the sampling policy. */
  completion_ids?: number[];
  completion_logprobs?: number[];
  meta: JsonObject;
}

/** The rows of one trained trajectory, one per turn that has a chat record; `missing` counts the others. */
export function trlRows(t: Trajectory, source: RowSource): { rows: TrlRow[]; missing: number } {
  const turns = chatTurnsOf(t.steps);
  const rows: TrlRow[] = [];
  let missing = 0;
  turns.forEach((turn, i) => {
    const step = t.steps[i];
    if (!turn || !step) {
      missing++;
      return;
    }
    rows.push({
      prompt: turn.messages,
      completion: [turn.reply],
      ...(turn.tools ? { tools: turn.tools } : {}),
      advantage: stepAdvantageOf(source, i),
      reward: t.reward,
      ...(turn.promptTokenIds ? { prompt_ids: turn.promptTokenIds } : {}),
      ...(step.tokenIds ? { completion_ids: step.tokenIds } : {}),
      ...(step.logProbs ? { completion_logprobs: step.logProbs } : {}),
      meta: {
        unit: source.unit,
        trajectory_id: t.id,
        task_id: t.taskId,
        family: t.family,
        turn: step.index,
        turns: t.steps.length,
        condition: t.condition,
        ...(t.skill ? { skill: t.skill.name } : {}),
        ...(step.invalid ? { invalid: true } : {}),
      },
    });
  });
  return { rows, missing };
}
