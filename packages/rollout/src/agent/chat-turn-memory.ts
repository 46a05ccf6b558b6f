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
    record(history, sent) {
      const lastRecord = history.at(-1)?.info?.chat as ChatTurnRecord | undefined;
      const previous = lastRecord ? (last.get(lastRecord) ?? chatTurnsOf(history).at(-1)) : undefined;
      const turn = previous ? shareWith(previous, sent) : sent;
      const record = encodeChatTurn(previous, turn);
      // Only the newest turn of an episode is needed; dropping the one before keeps memory linear.
      if (lastRecord) last.delete(lastRecord);
      last.set(record, turn);
      return record;
    },
  };
}

/**
 * Whether `a` and `b` serialise to the same JSON, decided without serialising when both are plain data:
 * same keys in the same order, equal primitives, recursively. `undefined` means "cannot tell this way" (a
 * class instance, a `toJSON`, NaN against null…), for the caller to settle with `JSON.stringify`.
 */
function plainSame(a: unknown, b: unknown, depth = 0): boolean | undefined {
  if (a === b) return true;
  // Two different strings never serialise alike (two numbers can: NaN and Infinity are both null).
  if (typeof a === 'string' && typeof b === 'string') return false;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > 8)
    return undefined;
  if (Array.isArray(a)) {
    if (!Array.isArray(b)) return undefined;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      const same = plainSame(a[i], b[i], depth + 1);
      if (same !== true) return same;
    }
    return true;
  }
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) {
    return undefined;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return undefined;
  for (let i = 0; i < ka.length; i++) {
    const key = ka[i] as string;
    if (key !== kb[i] || key === 'toJSON') return undefined;
    const same = plainSame(
      (a as Record<string, unknown>)[key],
      (b as Record<string, unknown>)[key],
      depth + 1,
    );
    if (same !== true) return same;
  }
  return true;
}

/** Core's test of a shared message or tool list (equal JSON), with the serialising left for the unclear cases. */
const sameJson = (a: unknown, b: unknown): boolean =>
  plainSame(a, b) ?? JSON.stringify(a) === JSON.stringify(b);

/**
 * `turn` with the messages it shares at the front with `previous` (and its tools, when they are the same)
 * replaced by `previous`'s own objects, so that core's encoder finds them identical by reference instead of
 * serialising both sides of every message: the transcript is rebuilt for each request, and comparing it
 * message by message as JSON cost more CPU per request than sending it. The record is the same either way.
 */
function shareWith(previous: ChatTurn, turn: ChatTurn): ChatTurn {
  const before = previous.messages;
  const n = Math.min(before.length, turn.messages.length);
  let keep = 0;
  while (keep < n && sameJson(before[keep], turn.messages[keep])) keep++;
  const shared: ChatTurn = {
    ...turn,
    messages: keep === 0 ? turn.messages : [...before.slice(0, keep), ...turn.messages.slice(keep)],
  };
  if (turn.tools && previous.tools && sameJson(previous.tools, turn.tools)) shared.tools = previous.tools;
  return shared;
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
