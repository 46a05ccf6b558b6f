import { fakePromptTokenIds } from './fake-chat-template.js';
import { fakeLogProbs, fakeTokenId, fakeTokenize } from './fake-tokens.js';
import type { NormalizedReply } from './normalize-reply.js';
import type { FakeChatRequest } from './types.js';

/** Fixed so that two runs of a test produce byte-identical bodies. */
const CREATED = 1_700_000_000;

export interface CompletionInput {
  reply: NormalizedReply;
  request: FakeChatRequest;
  index: number;
  seed: number;
}

function wantsLogProbs(request: FakeChatRequest): boolean {
  return request.logprobs === true;
}

function topCount(request: FakeChatRequest): number {
  const top = request.top_logprobs;
  return typeof top === 'number' && Number.isInteger(top) && top > 0 ? Math.min(top, 20) : 0;
}

function toolCallId(index: number, i: number): string {
  return `call_${index}_${i}`;
}

/**
 * The generated text behind the reply: the content, then each tool call's arguments, as a server that
 * decodes tool calls from text (vLLM, SGLang) would have sampled them. Log-probs and token ids cover it.
 */
function generatedTokens(reply: NormalizedReply): { content: string[]; tools: string[][] } {
  return {
    content: fakeTokenize(reply.content ?? ''),
    tools: reply.toolCalls.map((call) => fakeTokenize(call.arguments)),
  };
}

/** The body of a non-streaming chat completion. */
export function buildCompletion({ reply, request, index, seed }: CompletionInput): Record<string, unknown> {
  const tokens = generatedTokens(reply);
  const all = [...tokens.content, ...tokens.tools.flat()];
  const choice: Record<string, unknown> = {
    index: 0,
    message: {
      role: 'assistant',
      content: reply.content,
      refusal: null,
      ...(reply.toolCalls.length > 0
        ? {
            tool_calls: reply.toolCalls.map((call, i) => ({
              id: toolCallId(index, i),
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            })),
          }
        : {}),
    },
    logprobs: wantsLogProbs(request)
      ? { content: fakeLogProbs(seed, all, topCount(request)), refusal: null }
      : null,
    finish_reason: reply.finishReason,
  };
  if (wantsLogProbs(request) || request.return_token_ids === true) choice.token_ids = all.map(fakeTokenId);
  return {
    id: `chatcmpl-fake-${index}`,
    object: 'chat.completion',
    created: CREATED,
    model: request.model ?? 'fake-model',
    system_fingerprint: 'fake',
    choices: [choice],
    usage: reply.usage,
    // vLLM (>= 0.10.2) answers `return_token_ids` with the prompt's ids too, at the top of the response.
    ...(request.return_token_ids === true ? { prompt_token_ids: fakePromptTokenIds(request) } : {}),
  };
}

/** The `data:` payloads of a streaming chat completion, in order, without the final `[DONE]`. */
export function buildStreamChunks({
  reply,
  request,
  index,
  seed,
}: CompletionInput): Record<string, unknown>[] {
  const base = {
    id: `chatcmpl-fake-${index}`,
    object: 'chat.completion.chunk',
    created: CREATED,
    model: request.model ?? 'fake-model',
    system_fingerprint: 'fake',
  };
  const logprobs = wantsLogProbs(request);
  const ids = logprobs || request.return_token_ids === true;
  const top = topCount(request);
  const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null, ...extra }],
  });
  const tokens = generatedTokens(reply);
  // vLLM sends the prompt's ids once, on the first chunk.
  const first = chunk({ role: 'assistant', content: '' });
  const chunks: Record<string, unknown>[] = [
    request.return_token_ids === true ? { ...first, prompt_token_ids: fakePromptTokenIds(request) } : first,
  ];
  let position = 0;
  const tokenExtras = (token: string): Record<string, unknown> => {
    const extra: Record<string, unknown> = {};
    if (logprobs) extra.logprobs = { content: fakeLogProbs(seed, [token], top, position), refusal: null };
    if (ids) extra.token_ids = [fakeTokenId(token)];
    position++;
    return extra;
  };
  for (const token of tokens.content) chunks.push(chunk({ content: token }, tokenExtras(token)));
  reply.toolCalls.forEach((call, i) => {
    chunks.push(
      chunk({
        tool_calls: [
          {
            index: i,
            id: toolCallId(index, i),
            type: 'function',
            function: { name: call.name, arguments: '' },
          },
        ],
      }),
    );
    for (const token of tokens.tools[i] ?? []) {
      chunks.push(chunk({ tool_calls: [{ index: i, function: { arguments: token } }] }, tokenExtras(token)));
    }
  });
  chunks.push(chunk({}, { finish_reason: reply.finishReason }));
  if (request.stream_options?.include_usage === true)
    chunks.push({ ...base, choices: [], usage: reply.usage });
  return chunks;
}
