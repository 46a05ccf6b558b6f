import { StringDecoder } from 'node:string_decoder';
import { type CompletionRecord, isIdList, usageOf } from './completion-record.js';
import type { RecordedCallReply, RecordedToolCall } from './recorded-call.js';

const TOKEN_ID = /^token_id:(\d+)$/;

interface DeltaToolCall {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

interface ChunkChoice {
  index?: unknown;
  delta?: { content?: unknown; tool_calls?: DeltaToolCall[] };
  finish_reason?: unknown;
  logprobs?: { content?: { token?: unknown; logprob?: unknown }[] | null } | null;
  token_ids?: unknown;
}

interface Chunk {
  choices?: ChunkChoice[];
  usage?: unknown;
  prompt_token_ids?: unknown;
  error?: { message?: unknown };
}

/**
 * Reads a chat-completion event stream as it passes through, without holding the bytes: events are split on
 * blank lines across chunk boundaries (and UTF-8 characters across chunks), and each `data:` payload is
 * folded into the first choice's content, its tool calls (by `index`, argument deltas concatenated), the
 * finish reason, the last `usage`, the log-probs and token ids, and the prompt's token ids.
 */
export class StreamRecorder {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private data: string[] = [];
  private content: string[] = [];
  private sawContent = false;
  private readonly toolCalls = new Map<number, RecordedToolCall>();
  private finishReason: string | undefined;
  private usage: unknown;
  private choices = 0;
  private readonly logProbs: number[] = [];
  private readonly tokenIds: number[] = [];
  /** Log-prob tokens spelled `token_id:N` (vLLM `return_tokens_as_token_ids`), while every one is. */
  private spelledIds: number[] | undefined = [];
  private promptTokenIds: number[] | undefined;
  /** Saw `data: [DONE]`. */
  done = false;
  /** An error the stream itself carried (an `error` payload), or an event that was not JSON. */
  error: string | undefined;

  push(chunk: Buffer): void {
    const text = this.pending + this.decoder.write(chunk);
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      if (end < 0) break;
      let line = text.slice(start, end);
      start = end + 1;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      this.line(line);
    }
    this.pending = text.slice(start);
  }

  /** Flushes an event the stream ended without a blank line after. */
  finish(): void {
    const rest = this.pending + this.decoder.end();
    this.pending = '';
    if (rest.length > 0) this.line(rest);
    this.line('');
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) this.event(this.data.join('\n'));
      this.data = [];
      return;
    }
    if (line.startsWith('data:')) this.data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
  }

  private event(data: string): void {
    if (data === '[DONE]') {
      this.done = true;
      return;
    }
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
    } catch {
      this.error ??= `an event of the stream was not JSON: ${data.slice(0, 200)}`;
      return;
    }
    if (!chunk || typeof chunk !== 'object') return;
    if (chunk.error) {
      const message = chunk.error.message;
      this.error ??= `the stream carried an error: ${typeof message === 'string' ? message : JSON.stringify(chunk.error)}`;
    }
    if (chunk.usage) this.usage = chunk.usage;
    if (isIdList(chunk.prompt_token_ids)) this.promptTokenIds = chunk.prompt_token_ids;
    if (!Array.isArray(chunk.choices)) return;
    for (const choice of chunk.choices) {
      const index = typeof choice.index === 'number' ? choice.index : 0;
      this.choices = Math.max(this.choices, index + 1);
      if (index !== 0) continue;
      const delta = choice.delta;
      if (delta && typeof delta.content === 'string') {
        this.content.push(delta.content);
        this.sawContent = true;
      }
      if (delta && Array.isArray(delta.tool_calls)) {
        for (const part of delta.tool_calls) this.toolCall(part);
      }
      if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
      const logprobs = choice.logprobs?.content;
      if (Array.isArray(logprobs)) {
        for (const token of logprobs) {
          if (typeof token.logprob === 'number') this.logProbs.push(token.logprob);
          const id = typeof token.token === 'string' ? TOKEN_ID.exec(token.token)?.[1] : undefined;
          if (id === undefined) this.spelledIds = undefined;
          else this.spelledIds?.push(Number(id));
        }
      }
      if (isIdList(choice.token_ids)) for (const id of choice.token_ids) this.tokenIds.push(id);
    }
  }

  private toolCall(part: DeltaToolCall): void {
    const index = typeof part.index === 'number' ? part.index : this.toolCalls.size;
    let call = this.toolCalls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.toolCalls.set(index, call);
    }
    // Some servers repeat the id and name on every delta: they are set once, arguments are concatenated.
    if (typeof part.id === 'string' && part.id && !call.id) call.id = part.id;
    const name = part.function?.name;
    if (typeof name === 'string' && name && !call.name) call.name = name;
    const args = part.function?.arguments;
    if (typeof args === 'string') call.arguments += args;
  }

  /** The call's record as assembled so far. */
  record(): CompletionRecord {
    const text = this.content.join('');
    // A reply of tool calls only has `content: null` when it does not stream; its stream opens with ''.
    const content = this.sawContent && !(text === '' && this.toolCalls.size > 0) ? text : null;
    const reply: RecordedCallReply = { content };
    if (this.toolCalls.size > 0) {
      reply.toolCalls = [...this.toolCalls.entries()].sort((a, b) => a[0] - b[0]).map(([, call]) => call);
    }
    if (this.finishReason !== undefined) reply.finishReason = this.finishReason;
    if (this.choices > 1) reply.choices = this.choices;
    const out: CompletionRecord = { reply };
    const usage = usageOf(this.usage);
    if (usage) out.usage = usage;
    if (this.tokenIds.length > 0) out.tokenIds = this.tokenIds;
    else if (this.spelledIds && this.spelledIds.length > 0) out.tokenIds = this.spelledIds;
    if (this.logProbs.length > 0) out.logProbs = this.logProbs;
    if (this.promptTokenIds) out.promptTokenIds = this.promptTokenIds;
    return out;
  }
}
