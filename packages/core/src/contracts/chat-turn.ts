import type { JsonObject } from './json.js';

/** One function call in a chat message, in the OpenAI shape. */
export interface ChatTurnToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One chat message as an agent sent it to an OpenAI-compatible endpoint, or as the endpoint returned it. */
export interface ChatTurnMessage {
  /** `system`, `user`, `assistant` or `tool`. */
  role: string;
  content: string | null;
  tool_calls?: ChatTurnToolCall[];
  tool_call_id?: string;
  /** A reasoning model's separate reasoning text, when the server returned one (vLLM's reasoning parsers). */
  reasoning_content?: string;
}

/**
 * What an LLM agent sent and got back for one decision, stored at `TrajectoryStep.info.chat`. The messages
 * and the prompt's token ids are delta-coded against the previous step's record, so an episode of n turns
 * stores O(n) messages rather than O(n²): the request of this turn is the first `keep` messages of the
 * previous turn's request followed by `append`. `applyChatTurn` / `chatTurnsOf` expand it; `encodeChatTurn`
 * writes it.
 */
export interface ChatTurnRecord {
  /** How many leading messages of the previous turn's request this one repeats (0 on the first turn). */
  keep: number;
  /** The messages after those, exactly as sent. */
  append: ChatTurnMessage[];
  /** The tools sent, written when they differ from the previous turn's (`[]`: none any more); absent: the same. */
  tools?: JsonObject[];
  /** The assistant message as the endpoint returned it: content and every tool call. */
  reply: ChatTurnMessage;
  /**
   * The prompt as the server tokenized it (vLLM's response-level `prompt_token_ids`, asked for with
   * `return_token_ids`), delta-coded like the messages: the previous turn's first `keep` ids, then `append`.
   */
  promptTokenIds?: { keep: number; append: number[] };
}

/** One turn expanded: the full request and the reply. */
export interface ChatTurn {
  messages: ChatTurnMessage[];
  /** The tools sent with the request; absent when none. */
  tools?: JsonObject[];
  reply: ChatTurnMessage;
  promptTokenIds?: number[];
}
