import type { ChatModel, ChatRequest, ChatResponse } from '@skillrl/core';
import type { TinkerPolicy } from './tinker-policy.js';

export interface TinkerChatModelOptions {
  /** Used when a request names none. Default 1024. */
  maxTokens?: number;
  /** Used when a request names none. Default 1. */
  temperature?: number;
  topP?: number;
}

/**
 * Core's `ChatModel` over a Tinker policy: the messages rendered through the model's chat template, `n`
 * samples from its current sampler checkpoint in one `asample` request (`num_samples`), each choice with its
 * token ids and log-probs. Skill-R1's LLM editor proposes through it; a trainable editor then learns from the
 * same tokens.
 */
export function createTinkerChatModel(policy: TinkerPolicy, options: TinkerChatModelOptions = {}): ChatModel {
  return {
    model: policy.baseModel,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const prompt = policy.tokenizer.promptTokens(request.messages);
      const response = await policy.sample(prompt, {
        n: request.n ?? 1,
        maxTokens: request.maxTokens ?? options.maxTokens ?? 1024,
        temperature: request.temperature ?? options.temperature ?? 1,
        ...((request.topP ?? options.topP) !== undefined
          ? { topP: (request.topP ?? options.topP) as number }
          : {}),
        ...(request.seed !== undefined ? { seed: request.seed } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      });
      let output = 0;
      const choices = response.sequences.map((sequence) => {
        output += sequence.tokens.length;
        return {
          text: policy.tokenizer.decode(sequence.tokens),
          finishReason: sequence.stop_reason === 'stop' ? 'stop' : 'length',
          tokenIds: sequence.tokens,
          ...(sequence.logprobs ? { logProbs: sequence.logprobs } : {}),
        };
      });
      return { choices, usage: { inputTokens: prompt.length, outputTokens: output, requests: 1 } };
    },
  };
}
