import { gzipSync } from 'node:zlib';
import { BinaryReader } from '@bufbuild/protobuf/wire';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { afterEach, describe, expect, it } from 'vitest';
import { startOtlpReceiver } from './start-otlp-receiver.js';
import type { OtlpReceiver, ReceivedSpan } from './types.js';

const receivers: OtlpReceiver[] = [];
async function receiver(options: Parameters<typeof startOtlpReceiver>[0] = {}) {
  const r = await startOtlpReceiver(options);
  receivers.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/** A parent and a child span with every attribute type, ended and exported through `exporters`. */
async function exportSpans(...exporters: SpanExporter[]) {
  const provider = new BasicTracerProvider({
    spanProcessors: exporters.map((e) => new SimpleSpanProcessor(e)),
  });
  const tracer = provider.getTracer('receiver-test', '1.2.3');
  const parent = tracer.startSpan('episode', { kind: SpanKind.INTERNAL });
  const child = tracer.startSpan(
    'chat fake-model',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.request.model': 'fake-model',
        'gen_ai.usage.input_tokens': 42,
        'skillrl.reward': 0.75,
        'skillrl.passed': true,
        'gen_ai.response.finish_reasons': ['stop', 'length'],
        'skillrl.big': 2 ** 40,
      },
    },
    trace.setSpan(context.active(), parent),
  );
  child.addEvent('retry', { attempt: 2 });
  child.setStatus({ code: SpanStatusCode.ERROR, message: 'endpoint answered 503' });
  child.end();
  parent.end();
  await provider.forceFlush();
  await provider.shutdown();
  return { parent: parent.spanContext(), child: child.spanContext() };
}

/** What a test compares across encodings: everything the receiver decoded. */
const byName = (spans: ReceivedSpan[], name: string) => spans.find((s) => s.name === name) as ReceivedSpan;

describe('startOtlpReceiver', () => {
  it("decodes the real OTLP/HTTP JSON exporter's spans into plain objects", async () => {
    const r = await receiver();
    const ids = await exportSpans(new JsonExporter({ url: r.tracesUrl }));
    expect(r.exports()).toHaveLength(2);
    expect(r.exports()[0]?.encoding).toBe('json');
    const spans = r.spans();
    const parent = byName(spans, 'episode');
    const child = byName(spans, 'chat fake-model');
    expect(parent).toMatchObject({ traceId: ids.parent.traceId, spanId: ids.parent.spanId, kind: 1 });
    expect(parent.parentSpanId).toBeUndefined();
    expect(child).toMatchObject({
      traceId: ids.parent.traceId,
      spanId: ids.child.spanId,
      parentSpanId: ids.parent.spanId,
      kind: 3,
      status: { code: 2, message: 'endpoint answered 503' },
      attributes: {
        'gen_ai.request.model': 'fake-model',
        'gen_ai.usage.input_tokens': 42,
        'skillrl.reward': 0.75,
        'skillrl.passed': true,
        'gen_ai.response.finish_reasons': ['stop', 'length'],
        'skillrl.big': 2 ** 40,
      },
      scope: { name: 'receiver-test', version: '1.2.3' },
    });
    expect(child.events).toEqual([
      { name: 'retry', timeUnixNano: expect.stringMatching(/^\d{19}$/), attributes: { attempt: 2 } },
    ]);
    expect(child.resource['telemetry.sdk.language']).toBe('nodejs');
    expect(BigInt(child.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(child.startTimeUnixNano));
    expect(child.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('the protobuf exporter and the JSON exporter, sending the same spans, decode to the same objects', async () => {
    const r = await receiver();
    await exportSpans(new JsonExporter({ url: r.tracesUrl }), new ProtobufExporter({ url: r.tracesUrl }));
    const exports = r.exports();
    expect(exports.map((e) => e.encoding).sort()).toEqual(['json', 'json', 'protobuf', 'protobuf']);
    expect(exports.find((e) => e.encoding === 'protobuf')?.headers['content-type']).toBe(
      'application/x-protobuf',
    );
    for (const name of ['episode', 'chat fake-model']) {
      const [fromJson, fromProtobuf] = (['json', 'protobuf'] as const).map((encoding) =>
        byName(
          exports.filter((e) => e.encoding === encoding).flatMap((e) => e.spans),
          name,
        ),
      );
      expect(fromProtobuf).toEqual(fromJson);
    }
  });

  it('gzip: "All server components MUST support … gzip"', async () => {
    const r = await receiver();
    await exportSpans(new ProtobufExporter({ url: r.tracesUrl, compression: 'gzip' as never }));
    expect(r.exports()[0]?.headers['content-encoding']).toBe('gzip');
    expect(r.spans().map((s) => s.name)).toEqual(['chat fake-model', 'episode']);
  });

  it('a 503 (retryable per the spec) makes the real exporter retry; the retry is accepted', async () => {
    const r = await receiver({ failWith: (i) => (i === 0 ? 503 : undefined) });
    await exportSpans(new JsonExporter({ url: r.tracesUrl }));
    // Both spans arrived although the first request was refused.
    expect(
      r
        .spans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['chat fake-model', 'episode']);
  });

  it('the JSON mapping: hex ids in any case, int64 as string or number, enums as integers, unknown fields ignored', async () => {
    const r = await receiver();
    const body = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] },
          futureField: { ignored: true },
          scopeSpans: [
            {
              scope: { name: 's' },
              spans: [
                {
                  traceId: '5B8EFFF798038103D269B633813FC60C',
                  spanId: 'EEE19B7EC3C1B174',
                  parentSpanId: '',
                  name: 'x',
                  kind: 2,
                  startTimeUnixNano: '1544712660000000000',
                  endTimeUnixNano: 1544712661000000000,
                  attributes: [
                    { key: 'i', value: { intValue: '9007199254740993' } },
                    { key: 'n', value: { intValue: 7 } },
                    { key: 'nan', value: { doubleValue: 'NaN' } },
                    { key: 'b', value: { bytesValue: Buffer.from('hi').toString('base64') } },
                    {
                      key: 'kv',
                      value: { kvlistValue: { values: [{ key: 'a', value: { boolValue: false } }] } },
                    },
                    { key: 'empty', value: {} },
                  ],
                  status: {},
                  someNewField: 1,
                },
              ],
            },
          ],
        },
      ],
    };
    const res = await fetch(r.tracesUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({});
    const [span] = r.spans();
    expect(span).toMatchObject({
      traceId: '5b8efff798038103d269b633813fc60c',
      spanId: 'eee19b7ec3c1b174',
      kind: 2,
      startTimeUnixNano: '1544712660000000000',
      endTimeUnixNano: '1544712661000000000',
      durationMs: 1000,
      status: { code: 0 },
      resource: { 'service.name': 'svc' },
    });
    expect(span?.parentSpanId).toBeUndefined();
    expect(span?.attributes.i).toBe(9007199254740993n);
    expect(span?.attributes.n).toBe(7);
    expect(span?.attributes.nan).toBeNaN();
    expect(Buffer.from(span?.attributes.b as Uint8Array).toString()).toBe('hi');
    expect(span?.attributes.kv).toEqual({ a: false });
    expect(span?.attributes.empty).toBeNull();
  });

  it('bad data gets 400 and a Status in the request\'s encoding; the spec\'s "MUST NOT" enum names are bad data', async () => {
    const r = await receiver();
    const named = await fetch(r.tracesUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        resourceSpans: [
          {
            scopeSpans: [
              { spans: [{ traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8), kind: 'SPAN_KIND_SERVER' }] },
            ],
          },
        ],
      }),
    });
    expect(named.status).toBe(400);
    const status = (await named.json()) as { message: string; details?: unknown };
    expect(status.message).toMatch(/enum values must be integers/);
    // Where this receiver differs from the spec: "The Status.details field in the response SHOULD contain
    // a BadRequest that describes the bad data" (OTLP/HTTP Response, Bad Data). It sends only the message.
    expect(status.details).toBeUndefined();

    const garbage = await fetch(r.tracesUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body: new Uint8Array([0x0a, 0xff, 0xff, 0x01]),
    });
    expect(garbage.status).toBe(400);
    expect(garbage.headers.get('content-type')).toBe('application/x-protobuf');
    const reader = new BinaryReader(new Uint8Array(await garbage.arrayBuffer()));
    expect(reader.tag()[0]).toBe(2);
    expect(reader.string()).toMatch(/not a protobuf ExportTraceServiceRequest/);
    expect(r.spans()).toEqual([]);
  });

  it('an empty request is a success; wrong path, method, content type and oversized bodies are refused', async () => {
    const r = await receiver({ maxBodyBytes: 2000 });
    const post = (body: string | Uint8Array, headers: Record<string, string>, url = r.tracesUrl) =>
      fetch(url, { method: 'POST', headers, body });
    // "If the server receives an empty request … the server SHOULD respond with success."
    expect((await post('{}', { 'content-type': 'application/json' })).status).toBe(200);
    expect((await post(new Uint8Array(), { 'content-type': 'application/x-protobuf' })).status).toBe(200);
    expect((await post('{}', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post('{}', { 'content-type': 'application/json', 'content-encoding': 'br' })).status).toBe(
      415,
    );
    expect((await post('{}', { 'content-type': 'application/json' }, `${r.url}/v1/metrics`)).status).toBe(
      404,
    );
    const get = await fetch(r.tracesUrl);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    // "If the limit is exceeded, the server SHOULD respond with HTTP 413", after decompression too.
    expect((await post('x'.repeat(3000), { 'content-type': 'application/json' })).status).toBe(413);
    const bomb = gzipSync(Buffer.from(`{"resourceSpans":[],"pad":"${' '.repeat(10_000)}"}`));
    expect(bomb.length).toBeLessThan(2000);
    expect(
      (await post(bomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' })).status,
    ).toBe(413);
    expect(r.spans()).toEqual([]);
  });

  it('waitForSpans resolves when its condition holds and rejects, saying what arrived, when it never does', async () => {
    const r = await receiver();
    const waiting = r.waitForSpans((spans) => spans.length >= 2);
    await exportSpans(new JsonExporter({ url: r.tracesUrl }));
    expect((await waiting).length).toBe(2);
    await expect(r.waitForSpans((spans) => spans.length > 5, 50)).rejects.toThrow(/2 spans received/);
    r.clear();
    expect(r.spans()).toEqual([]);
    await r.close();
    await expect(fetch(r.tracesUrl, { method: 'POST' })).rejects.toThrow();
  });
});
