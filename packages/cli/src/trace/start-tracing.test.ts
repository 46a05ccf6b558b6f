import { createServer } from 'node:net';
import { trace } from '@opentelemetry/api';
import { type OtlpReceiver, startOtlpReceiver } from '@skillrl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { withCliTracing } from './cli-tracing.js';
import { startTracing } from './start-tracing.js';
import { exportTimeoutMs, tracesTarget } from './traces-target.js';
import { TRACING_PACKAGES } from './tracing-packages.js';

const receivers: OtlpReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
async function receiver() {
  const r = await startOtlpReceiver();
  receivers.push(r);
  return r;
}

/** A port nothing listens on: bound, then closed. */
async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const probe = () => trace.getTracer('probe').startSpan('probe');

const OTEL_VARIABLES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TIMEOUT',
  'OTEL_SERVICE_NAME',
];
/** The SDK and the exporter read process.env themselves: each test sets what it needs, and nothing else. */
function setEnv(vars: Record<string, string>): void {
  for (const name of OTEL_VARIABLES) delete process.env[name];
  Object.assign(process.env, vars);
}
afterEach(() => setEnv({}));

describe('tracesTarget', () => {
  it('reads the standard variables: the traces endpoint as is, the base with /v1/traces; the SDK switches turn it off', () => {
    expect(tracesTarget({})).toBeUndefined();
    expect(tracesTarget({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeUndefined();
    expect(tracesTarget({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      endpoint: 'http://collector:4318/v1/traces',
      variable: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    });
    expect(
      tracesTarget({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://cloud.langfuse.com/api/public/otel/v1/traces',
      }),
    ).toEqual({
      endpoint: 'https://cloud.langfuse.com/api/public/otel/v1/traces',
      variable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    });
    expect(tracesTarget({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://u:secret-pass@c:4318' })?.endpoint).toBe(
      'https://[REDACTED]@c:4318/v1/traces',
    );
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(tracesTarget({ ...on, OTEL_SDK_DISABLED: 'TRUE' })).toBeUndefined();
    expect(tracesTarget({ ...on, OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(tracesTarget({ ...on, OTEL_TRACES_EXPORTER: 'otlp' })).toBeDefined();
    expect(exportTimeoutMs({})).toBe(10_000);
    expect(exportTimeoutMs({ OTEL_EXPORTER_OTLP_TIMEOUT: '2500' })).toBe(2500);
    expect(
      exportTimeoutMs({ OTEL_EXPORTER_OTLP_TIMEOUT: '2500', OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '700' }),
    ).toBe(700);
  });
});

describe('startTracing', () => {
  it('without the variables it imports nothing and spans stay no-ops', async () => {
    const imported: string[] = [];
    setEnv({});
    const tracing = await startTracing({
      importer: async (name) => {
        imported.push(name);
        return {};
      },
    });
    expect(tracing.enabled).toBe(false);
    expect(imported).toEqual([]);
    expect(probe().isRecording()).toBe(false);
  });

  it('exports to the endpoint with service.name skillrl (OTEL_SERVICE_NAME wins), then unregisters', async () => {
    const r = await receiver();
    const warnings: string[] = [];
    setEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: r.url });
    const tracing = await startTracing({ warn: (m) => warnings.push(m) });
    expect(tracing.enabled).toBe(true);
    expect(tracing.target?.endpoint).toBe(r.tracesUrl);
    trace.getTracer('t').startSpan('one').end();
    expect(await tracing.shutdown()).toBe(true);
    expect(probe().isRecording()).toBe(false);
    const [span] = r.spans();
    expect(span?.name).toBe('one');
    expect(span?.resource['service.name']).toBe('skillrl');
    expect(span?.resource['service.version']).toMatch(/^\d+\.\d+\.\d+/);
    expect(warnings).toEqual([]);

    r.clear();
    setEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: r.tracesUrl, OTEL_SERVICE_NAME: 'my-trainer' });
    const named = await startTracing();
    trace.getTracer('t').startSpan('two').end();
    await named.shutdown();
    expect(r.spans()[0]?.resource['service.name']).toBe('my-trainer');
  });

  it('a missing optional peer: a warning naming the package to install, and the command goes on untraced', async () => {
    const warnings: string[] = [];
    setEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
    const tracing = await startTracing({
      warn: (m) => warnings.push(m),
      // The real error of importing a package that is not installed, for the SDK alone.
      importer: (name) =>
        import(name === TRACING_PACKAGES.sdk.name ? `${name}-not-installed` : name) as Promise<
          Record<string, unknown>
        >,
    });
    expect(tracing.enabled).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /OTEL_EXPORTER_OTLP_ENDPOINT is set, but exporting traces needs @opentelemetry\/sdk-trace-node, not installed: `npm install @opentelemetry\/sdk-trace-node@\^2\.12\.1`.*goes on untraced/,
    );
    expect(probe().isRecording()).toBe(false);
    expect(await tracing.shutdown()).toBe(true);
  });

  it('an unreachable collector: one warning naming it, and the shutdown ends within its bound', async () => {
    const port = await refusedPort();
    const warnings: string[] = [];
    setEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_EXPORTER_OTLP_TIMEOUT: '800' });
    const tracing = await startTracing({ warn: (m) => warnings.push(m) });
    for (let i = 0; i < 3; i++) trace.getTracer('t').startSpan(`s${i}`).end();
    const started = Date.now();
    expect(await tracing.shutdown()).toBe(false);
    expect(Date.now() - started).toBeLessThan(800 + 1000 + 500);
    expect(warnings.join('\n')).toContain(`traces could not be sent to http://127.0.0.1:${port}/v1/traces`);
    expect(warnings.filter((w) => w.startsWith('traces could not be sent'))).toHaveLength(1);
  });

  it('withCliTracing: only the commands that run episodes set tracing up, and every outcome shuts it down', async () => {
    const r = await receiver();
    setEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: r.url });
    const seen: boolean[] = [];
    const command = async () => {
      seen.push(probe().isRecording());
      trace.getTracer('t').startSpan('inside').end();
      return 0;
    };
    expect(await withCliTracing(['report', 'x'], {}, command)).toBe(0);
    expect(await withCliTracing(['run', 'x'], {}, command)).toBe(0);
    await expect(
      withCliTracing(['worker'], {}, async () => {
        trace.getTracer('t').startSpan('before-failure').end();
        throw new Error('failed');
      }),
    ).rejects.toThrow('failed');
    expect(seen).toEqual([false, true]);
    expect(probe().isRecording()).toBe(false);
    expect(r.spans().map((s) => s.name)).toEqual(['inside', 'before-failure']);
  });
});
