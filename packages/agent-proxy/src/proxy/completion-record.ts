import type { Usage } from '@skillrl/core';
import { extractTokens } from '@skillrl/rollout';
import type { RecordedCall, RecordedCallReply, RecordedToolCall } from './recorded-call.js';

/** What a reply adds to its RecordedCall. */
export type CompletionRecord = Pick<
  RecordedCall,
  'reply' | 'usage' | 'tokenIds' | 'logProbs' | 'promptTokenIds'
>;

interface UsageLike {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
}

/** Core's `Usage` from an OpenAI `usage` object (one request). */
export function usageOf(usage: unknown): Usage | undefined {
  if (!usage || typeof usage !== 'object') return undefined;
  const u = usage as UsageLike;
  const input = typeof u.prompt_tokens === 'number' ? u.prompt_tokens : 0;
  const output = typeof u.completion_tokens === 'number' ? u.completion_tokens : 0;
  return { inputTokens: input, outputTokens: output, requests: 1 };
}

export function isIdList(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((id) => Number.isInteger(id));
}

interface MessageLike {
  content?: unknown;
  tool_calls?: { id?: unknown; function?: { name?: unknown; arguments?: unknown } }[];
}

interface CompletionLike {
  choices?: ({ message?: MessageLike; finish_reason?: unknown } & Parameters<typeof extractTokens>[0])[];
  usage?: unknown;
  prompt_token_ids?: unknown;
}

/**
 * The record of a non-streaming completion: the first choice's content, tool calls and finish reason, the
 * number of choices, usage, and the token ids and log-probs where the server gave them.
 */
export function recordCompletion(body: unknown): CompletionRecord {
  const completion = (body && typeof body === 'object' ? body : {}) as CompletionLike;
  const out: CompletionRecord = {};
  const choices = Array.isArray(completion.choices) ? completion.choices : [];
  const first = choices[0];
  if (first) {
    const message = first.message ?? {};
    const reply: RecordedCallReply = {
      content: typeof message.content === 'string' ? message.content : null,
    };
    if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
      reply.toolCalls = message.tool_calls.map(
        (call): RecordedToolCall => ({
          id: typeof call.id === 'string' ? call.id : '',
          name: typeof call.function?.name === 'string' ? call.function.name : '',
          arguments: typeof call.function?.arguments === 'string' ? call.function.arguments : '',
        }),
      );
    }
    if (typeof first.finish_reason === 'string') reply.finishReason = first.finish_reason;
    if (choices.length > 1) reply.choices = choices.length;
    out.reply = reply;
    const tokens = extractTokens(first);
    if (tokens.tokenIds) out.tokenIds = tokens.tokenIds;
    if (tokens.logProbs) out.logProbs = tokens.logProbs;
  } else {
    out.reply = { content: null, choices: 0 };
  }
  const usage = usageOf(completion.usage);
  if (usage) out.usage = usage;
  if (isIdList(completion.prompt_token_ids)) out.promptTokenIds = completion.prompt_token_ids;
  return out;
}
