import type { Usage } from './usage.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One chat completion request, independent of any provider's SDK. */
export interface ChatRequest {
  messages: ChatMessage[];
  /** Completions to sample for the same prompt. Default 1. */
  n?: number;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  seed?: number;
  /** Ask for per-token log-probs (and token ids where the server has them). */
  logprobs?: boolean;
  signal?: AbortSignal;
}

export interface ChatChoice {
  text: string;
  finishReason?: string;
  tokenIds?: number[];
  logProbs?: number[];
}

export interface ChatResponse {
  choices: ChatChoice[];
  usage?: Usage;
}

/**
 * A text-in, text-out model: what skill editors and LLM judges need, where an `Agent` (which acts in an
 * environment) is the wrong shape. `@skillrl/rollout` implements it over OpenAI-compatible endpoints with the
 * same retries, rate limits and cache as its agents.
 */
export interface ChatModel {
  readonly model: string;
  complete(request: ChatRequest): Promise<ChatResponse>;
}
