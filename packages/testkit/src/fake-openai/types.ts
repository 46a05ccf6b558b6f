import type { IncomingHttpHeaders } from 'node:http';

/** The faults the fake server can inject, one per request at most. */
export type FaultKind =
  /** 429 with `Retry-After` (seconds) and `retry-after-ms`. */
  | 'rate-limit'
  /** 500 with an OpenAI-style error body. */
  | 'server-error'
  /** Never answers; the request stays open until the client gives up or the server closes. */
  | 'hang'
  /** Sends the status line and part of the body, then destroys the socket. */
  | 'drop'
  /** 200, but the tool call's `arguments` are not valid JSON. */
  | 'malformed-tool-call'
  /** 200 with a body (or SSE event) cut off in the middle of its JSON. */
  | 'truncated-json'
  // Endpoint faults: what a wrong key, URL or proxy gives on every request. Never drawn unless named.
  /** 401 with OpenAI's "Incorrect API key" error body. */
  | 'unauthorized'
  /** 404 with an OpenAI-style "model not found" error body. */
  | 'not-found'
  /** 502 with an HTML page (a reverse proxy whose upstream is down), `content-type: text/html`. */
  | 'bad-gateway-html'
  /** 200 with `content-type: application/json` and a body that is not JSON. */
  | 'non-json'
  /** 200 with a well-formed completion whose `choices` is `[]` (a gateway that filtered every choice). */
  | 'no-choices'
  /** 200 with a completion object that has no `choices` field at all. */
  | 'missing-choices';

/** The transient faults `faults.rate` draws from by default: a retry may get through. */
export const FAULT_KINDS: readonly FaultKind[] = [
  'rate-limit',
  'server-error',
  'hang',
  'drop',
  'malformed-tool-call',
  'truncated-json',
];

/**
 * Faults of a misconfigured endpoint (a wrong key, a wrong path, a proxy in front of nothing): name them in
 * `faults.kinds` or return them from `faults.plan`; `rate` alone never draws them.
 */
export const ENDPOINT_FAULT_KINDS: readonly FaultKind[] = [
  'unauthorized',
  'not-found',
  'bad-gateway-html',
  'non-json',
  'no-choices',
  'missing-choices',
];

/** One tool call the fake model makes. `arguments` is sent verbatim, so it may be invalid JSON on purpose. */
export interface FakeToolCall {
  name: string;
  arguments: string;
}

/** What the fake model answers: plain text, or a structured reply. */
export type FakeReply =
  | string
  | {
      content?: string;
      toolCalls?: FakeToolCall[];
      /** Defaults to `tool_calls` when there are tool calls, else `stop`. */
      finishReason?: string;
      /** Defaults to whitespace-token counts of the prompt and the reply. */
      usage?: { prompt_tokens: number; completion_tokens: number };
    };

/** The parsed body of a `POST /v1/chat/completions` request (the fields the fake server reads). */
export interface FakeChatRequest {
  model?: string;
  messages?: { role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  logprobs?: boolean;
  top_logprobs?: number;
  n?: number;
  [key: string]: unknown;
}

/** What `respond` and `faults.plan` learn about the request they handle. */
export interface FakeRequestContext {
  /** 0-based arrival order of this chat-completion request. */
  index: number;
  /**
   * How many earlier requests carried exactly the same body: 0 for a first try, 1 for the first retry…
   * Faults are drawn from `(seed, body, attempt)`, so a retried request is not doomed to the same fault and a
   * run's faults do not depend on the order in which concurrent requests arrive.
   */
  attempt: number;
  /** Aborts when the client disconnects or the server closes. */
  signal: AbortSignal;
}

export interface FakeFaultOptions {
  /** Probability in [0, 1] that a request is faulted. Default 0. */
  rate?: number;
  /** Kinds drawn uniformly when a fault fires. Default: all of `FAULT_KINDS`. */
  kinds?: FaultKind[];
  /** Decides the fault for a request instead of `rate`/`kinds`; return `undefined` for none. */
  plan?: (context: FakeRequestContext & { request: FakeChatRequest }) => FaultKind | undefined;
  /** Delay announced by `rate-limit` faults, in milliseconds. Default 1000. */
  retryAfterMs?: number;
}

export interface FakeOpenAIOptions {
  /** Computes the reply for a request. Takes precedence over `script`. */
  respond?: (request: FakeChatRequest, context: FakeRequestContext) => FakeReply | Promise<FakeReply>;
  /**
   * Replies served in order, one per answered (non-faulted) request. When the script is exhausted it
   * starts again from the top (`onScriptEnd: 'cycle'`, the default) or answers 500 (`'error'`).
   */
  script?: FakeReply[];
  onScriptEnd?: 'cycle' | 'error';
  /** Delay before answering: a fixed number of milliseconds or a `[min, max]` range drawn from the seed. */
  latencyMs?: number | [number, number];
  /** Seeds fault choice, latency draws and fake log-probs. Default 0. */
  seed?: number;
  faults?: FakeFaultOptions;
  /** Port to listen on; 0 (default) picks a free one. Always binds 127.0.0.1. */
  port?: number;
  /** Model ids listed by `GET /v1/models`. Default `['fake-model']`. */
  models?: string[];
  /** Keep every request in `handle.requests`. Default true; turn off for long benchmarks. */
  record?: boolean;
  /**
   * The endpoint dies mid-run: the chat-completion request with this 0-based arrival index, and every one
   * after it, gets its socket destroyed, and the server stops listening, so later connections are refused
   * (what a crashed or killed model server looks like to a client). `died()` tells whether it happened.
   */
  dieAtRequest?: number;
}

/** One request as the server saw it. `authorization` is never recorded. */
export interface RecordedRequest {
  index: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text when it was not JSON; `undefined` for a bodiless request. */
  body: unknown;
  fault?: FaultKind;
}

export interface FakeOpenAIStats {
  /** Chat-completion requests received. */
  received: number;
  /** Requests answered with a complete, well-formed 200. */
  completed: number;
  /** Requests faulted, per kind. */
  faulted: Record<FaultKind, number>;
  /** Requests the client abandoned before the answer was complete. */
  aborted: number;
}

export interface FakeOpenAIServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** `url + '/v1'`: pass it as the OpenAI client's `baseURL`. */
  baseURL: string;
  port: number;
  requests: RecordedRequest[];
  /** Chat-completion requests received and not yet finished (answered, dropped or abandoned). */
  inFlight(): number;
  stats(): FakeOpenAIStats;
  /** Whether the server died (`dieAtRequest` reached). */
  died(): boolean;
  /** Stops listening, ends hanging requests and closes every socket. */
  close(): Promise<void>;
}
