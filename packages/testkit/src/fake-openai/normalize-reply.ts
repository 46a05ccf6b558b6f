import { fakeTokenize } from './fake-tokens.js';
import type { FakeChatRequest, FakeReply, FakeToolCall } from './types.js';

export interface NormalizedReply {
  content: string | null;
  toolCalls: FakeToolCall[];
  finishReason: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
      .join(' ');
  }
  return '';
}

/** Fake prompt-token count: whitespace tokens of every message, plus 3 per message for the role framing. */
export function countPromptTokens(request: FakeChatRequest): number {
  let n = 0;
  for (const message of request.messages ?? []) n += 3 + fakeTokenize(messageText(message.content)).length;
  return n;
}

/** Fills a reply's defaults (finish reason, usage) from the request. */
export function normalizeReply(reply: FakeReply, request: FakeChatRequest): NormalizedReply {
  const r = typeof reply === 'string' ? { content: reply } : reply;
  const toolCalls = r.toolCalls ?? [];
  const content = r.content ?? (toolCalls.length > 0 ? null : '');
  const completion =
    fakeTokenize(content ?? '').length +
    toolCalls.reduce((sum, call) => sum + fakeTokenize(`${call.name} ${call.arguments}`).length, 0);
  const prompt = r.usage?.prompt_tokens ?? countPromptTokens(request);
  const completionTokens = r.usage?.completion_tokens ?? completion;
  return {
    content,
    toolCalls,
    finishReason: r.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completionTokens,
      total_tokens: prompt + completionTokens,
    },
  };
}
