import type { Usage } from '@skillrl/core';

/** One tool call of a reply, assembled from its stream deltas when the call streamed. */
export interface RecordedToolCall {
  id: string;
  name: string;
  /** Exactly as the model produced it: possibly invalid JSON. */
  arguments: string;
}

/** The first choice of a reply (the one a program reads), and how many choices came back (`n`). */
export interface RecordedCallReply {
  content: string | null;
  toolCalls?: RecordedToolCall[];
  finishReason?: string;
  /** How many choices the reply had, when it was not one. */
  choices?: number;
}

/**
 * The request as the PROGRAM sent it (its own `model` field included; the proxy sent `upstreamModel`
 * instead). `injectedSkill: true` says the skill was put into the system message before sending; the
 * messages here are the program's, without the skill.
 */
export interface RecordedCallRequest {
  model?: string;
  messages: unknown[];
  tools?: unknown[];
  response_format?: unknown;
  n?: number;
  injectedSkill?: true;
  [key: string]: unknown;
}

/**
 * One chat completion a program made through the proxy, success or failure: what it asked, what came back
 * (assembled from the stream when it streamed), the tokens the endpoint reported. It never holds the real
 * API key nor the episode token.
 */
export interface RecordedCall {
  /** 0-based arrival order of the call within its episode. */
  index: number;
  episodeId: string;
  /** ISO time at which the proxy received the call. */
  startedAt: string;
  /** From receiving the call to its last byte sent back to the program (retries and waits included). */
  latencyMs: number;
  /** The HTTP status the program got. */
  status: number;
  stream: boolean;
  request: RecordedCallRequest;
  /** The model the call was sent upstream with (the configured `upstream.model`). */
  upstreamModel: string;
  /** Upstream attempts made (1 when the first one answered). */
  attempts: number;
  reply?: RecordedCallReply;
  usage?: Usage;
  /** The reply's token ids (vLLM `return_token_ids` → `choices[0].token_ids`, or `token_id:N` tokens). */
  tokenIds?: number[];
  /** Per-token log-probs of the first choice (`logprobs.content[].logprob`). */
  logProbs?: number[];
  /** The prompt's token ids (vLLM `prompt_token_ids`), as the server templated the messages it received. */
  promptTokenIds?: number[];
  /** Why the call failed, secrets redacted. */
  error?: string;
}
