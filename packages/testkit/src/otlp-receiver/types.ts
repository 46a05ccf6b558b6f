/**
 * An OTLP `AnyValue` as a plain value: a string, boolean, number (an `intValue` beyond 2^53 is a `bigint`),
 * bytes, an array, a record (`kvlistValue`), or null for an empty value.
 */
export type ReceivedAttributeValue =
  | string
  | boolean
  | number
  | bigint
  | Uint8Array
  | null
  | ReceivedAttributeValue[]
  | { [key: string]: ReceivedAttributeValue };

/** ReceivedAttributes (`repeated KeyValue`) as a flat record; a repeated key keeps its last value. */
export type ReceivedAttributes = Record<string, ReceivedAttributeValue>;

/** A span event. */
export interface ReceivedSpanEvent {
  name: string;
  /** Nanoseconds since the epoch, as a decimal string (a fixed64 does not fit a number). */
  timeUnixNano: string;
  attributes: ReceivedAttributes;
}

/** A span link. */
export interface ReceivedSpanLink {
  traceId: string;
  spanId: string;
  attributes: ReceivedAttributes;
}

/** One span as received, decoded from OTLP/HTTP JSON or binary protobuf into the same plain shape. */
export interface ReceivedSpan {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** The parent's span id, absent on a root span. */
  parentSpanId?: string;
  traceState?: string;
  name: string;
  /** OTLP's `SpanKind`: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** Nanoseconds since the epoch, as decimal strings. */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  /** `end - start`, in milliseconds. */
  durationMs: number;
  attributes: ReceivedAttributes;
  events: ReceivedSpanEvent[];
  links: ReceivedSpanLink[];
  /** `code`: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  flags?: number;
  /** The attributes of the resource that sent it (`service.name`, …). */
  resource: ReceivedAttributes;
  /** The instrumentation scope (the tracer's name and version). */
  scope: { name: string; version?: string; attributes: ReceivedAttributes };
}

/** One `POST /v1/traces` request the receiver accepted. */
export interface ReceivedExport {
  encoding: 'json' | 'protobuf';
  /** The request headers, lowercased (what a test searches for a secret that should not travel). */
  headers: Record<string, string>;
  /** The body as it arrived, after gzip was undone. */
  body: Uint8Array;
  spans: ReceivedSpan[];
}

export interface OtlpReceiverOptions {
  /** Port to listen on; 0 (default) picks a free one. Always binds 127.0.0.1. */
  port?: number;
  /** The largest body accepted, after decompression; larger gets 413. Default 20 MiB (the spec's advice). */
  maxBodyBytes?: number;
  /**
   * Answers a request with this HTTP status instead of accepting it (a 503 to see an exporter retry, say);
   * return undefined to accept. Called with the 0-based index of each `POST /v1/traces`.
   */
  failWith?: (index: number) => number | undefined;
}

/** A running OTLP/HTTP trace receiver (`startOtlpReceiver`). */
export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: the value for `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  readonly url: string;
  /** `<url>/v1/traces`: the value for `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`. */
  readonly tracesUrl: string;
  readonly port: number;
  /** Every span received so far, in arrival order. */
  spans(): ReceivedSpan[];
  /** Every accepted request so far. */
  exports(): ReceivedExport[];
  /** Resolves with all spans once `done(spans)` holds; rejects after `timeoutMs` (default 10 000). */
  waitForSpans(done: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  /** Forgets what was received. */
  clear(): void;
  close(): Promise<void>;
}
