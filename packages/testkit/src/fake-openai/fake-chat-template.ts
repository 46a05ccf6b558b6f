import { fakeTokenId, fakeTokenize } from './fake-tokens.js';
import type { FakeChatRequest } from './types.js';

/** The fake chat template's special tokens (ChatML's spelling). */
export const FAKE_IM_START = '<|im_start|>';
export const FAKE_IM_END = '<|im_end|>';

const ids = (text: string) => fakeTokenize(text).map(fakeTokenId);

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && 'text' in part ? String(part.text) : ''))
      .join(' ');
  }
  return '';
}

/**
 * The prompt token ids the fake server reports for a request (vLLM's response-level `prompt_token_ids`):
 * a ChatML-like template tokenized segment by segment — a tools block first when the request has tools,
 * then per message `<|im_start|>`, the role, the content's fake tokens (and each tool call's arguments),
 * `<|im_end|>` — and the generation prompt `<|im_start|> assistant`. Segment-wise tokenization is what makes
 * it behave like a real tokenizer with special tokens: an assistant message replayed in the history has
 * exactly the token ids the server returned for it, so a request that extends the previous one (plus its
 * reply) has the previous prompt and reply ids as its prefix.
 */
export function fakePromptTokenIds(request: FakeChatRequest): number[] {
  const start = fakeTokenId(FAKE_IM_START);
  const end = fakeTokenId(FAKE_IM_END);
  const out: number[] = [];
  if (Array.isArray(request.tools) && request.tools.length > 0) {
    out.push(start, fakeTokenId('tools'), ...ids(JSON.stringify(request.tools)), end);
  }
  for (const message of request.messages ?? []) {
    out.push(start, fakeTokenId(message.role), ...ids(contentText(message.content)));
    const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    for (const call of calls as { function?: { arguments?: unknown } }[]) {
      out.push(...ids(String(call.function?.arguments ?? '')));
    }
    out.push(end);
  }
  out.push(start, fakeTokenId('assistant'));
  return out;
}
