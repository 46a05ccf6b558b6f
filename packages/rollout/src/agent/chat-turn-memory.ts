import {
  type ChatTurn,
  type ChatTurnMessage,
  type ChatTurnRecord,
  chatTurnsOf,
  encodeChatTurn,
  type TrajectoryStep,
} from '@skillrl/core';

export interface ChatTurnMemory {
  /** The record of `turn`, delta-coded against the turn of the last step in `history`. */
  record(history: readonly TrajectoryStep[], turn: ChatTurn): ChatTurnRecord;
}

/**
 * Remembers the last expanded turn of each episode in flight, keyed by the record the agent returned for it
 * (`runEpisode` keeps that object in `step.info.chat`), so encoding the next turn costs one comparison with
 * it instead of re-expanding the whole history. A history the agent did not record itself (a restored
 * episode, another agent's steps) is expanded from its records; a step without one starts afresh.
 */
export function createChatTurnMemory(): ChatTurnMemory {
  const last = new WeakMap<ChatTurnRecord, ChatTurn>();
  return {
    record(history, turn) {
      const lastRecord = history.at(-1)?.info?.chat as ChatTurnRecord | undefined;
      const previous = lastRecord ? (last.get(lastRecord) ?? chatTurnsOf(history).at(-1)) : undefined;
      const record = encodeChatTurn(previous, turn);
      // Only the newest turn of an episode is needed; dropping the one before keeps memory linear.
      if (lastRecord) last.delete(lastRecord);
      last.set(record, turn);
      return record;
    },
  };
}

interface MessageLike {
  role?: string;
  content?: string | null;
  tool_calls?: { id: string; type: string; function?: { name: string; arguments: string } }[];
  reasoning_content?: unknown;
}

/** The assistant message as the endpoint returned it: role, content, every function call, reasoning text. */
export function replyOf(message: MessageLike | undefined): ChatTurnMessage {
  const reply: ChatTurnMessage = { role: 'assistant', content: message?.content ?? null };
  const calls = (message?.tool_calls ?? []).filter((c) => c.type === 'function' && c.function);
  if (calls.length > 0) {
    reply.tool_calls = calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.function?.name ?? '', arguments: c.function?.arguments ?? '' },
    }));
  }
  if (typeof message?.reasoning_content === 'string') reply.reasoning_content = message.reasoning_content;
  return reply;
}

/** vLLM's response-level `prompt_token_ids` (sent for `return_token_ids`), when the response has them. */
export function promptTokenIdsOf(response: unknown): number[] | undefined {
  const ids = (response as { prompt_token_ids?: unknown } | undefined)?.prompt_token_ids;
  return Array.isArray(ids) && ids.every((id) => Number.isInteger(id)) ? (ids as number[]) : undefined;
}
