import type { IncomingHttpHeaders } from 'node:http';

/**
 * Read-only response headers over Node's already lower-cased `IncomingHttpHeaders`: the part of the fetch
 * `Headers` API that HTTP clients read (`get`, `has`, iteration). Building a WHATWG `Headers` validates and
 * copies every pair; at a thousand requests a second that shows in the client's CPU time.
 */
export class ResponseHeaders implements Iterable<[string, string]> {
  readonly #raw: IncomingHttpHeaders;
  #sorted: [string, string][] | undefined;

  constructor(raw: IncomingHttpHeaders, omit: readonly string[] = []) {
    const kept: IncomingHttpHeaders = {};
    for (const key in raw) if (!omit.includes(key)) kept[key] = raw[key];
    this.#raw = kept;
  }

  get(name: string): string | null {
    const value = this.#raw[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.#raw[name.toLowerCase()] !== undefined;
  }

  getSetCookie(): string[] {
    const value = this.#raw['set-cookie'];
    return value === undefined ? [] : Array.isArray(value) ? [...value] : [value];
  }

  *entries(): IterableIterator<[string, string]> {
    // Sorted by name, as `Headers` iterates; worked out once, as the `openai` client iterates every response's.
    if (!this.#sorted) {
      this.#sorted = [];
      for (const key of Object.keys(this.#raw).sort()) {
        const value = this.get(key);
        if (value !== null) this.#sorted.push([key, value]);
      }
    }
    for (const [key, value] of this.#sorted) yield [key, value];
  }

  *keys(): IterableIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, key: string, parent: ResponseHeaders) => void): void {
    for (const [key, value] of this.entries()) callback(value, key, this);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/**
 * A fetch `Response` whose body is already in memory. `json()`, `text()` and `arrayBuffer()` read the buffer
 * directly; `body` (a `ReadableStream`) and `blob()` are built only when asked for. The body can be read once,
 * as with `fetch`; `clone()` gives an unread copy.
 */
export class BufferedResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: ResponseHeaders;
  readonly url: string;
  readonly redirected = false;
  readonly type = 'basic' as const;
  #data: Buffer | null;
  #used = false;
  #stream: ReadableStream<Uint8Array> | null | undefined;

  constructor(
    data: Buffer | null,
    init: { status: number; statusText: string; headers: ResponseHeaders; url: string },
  ) {
    this.#data = data;
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
    this.url = init.url;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#stream === undefined) {
      const data = this.#data;
      this.#stream =
        data === null
          ? null
          : new ReadableStream<Uint8Array>({
              start: (controller) => {
                this.#used = true;
                if (data.length > 0) controller.enqueue(new Uint8Array(data));
                controller.close();
              },
            });
    }
    return this.#stream;
  }

  #take(): Buffer {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#data ?? Buffer.alloc(0);
  }

  async text(): Promise<string> {
    return this.#take().toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.#take().toString('utf8'));
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const data = this.#take();
    return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.arrayBuffer());
  }

  async blob(): Promise<Blob> {
    const type = this.headers.get('content-type') ?? '';
    return new Blob([await this.arrayBuffer()], { type });
  }

  clone(): BufferedResponse {
    if (this.#used) throw new TypeError('Response.clone: Body has already been consumed.');
    return new BufferedResponse(this.#data, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
      url: this.url,
    });
  }
}
