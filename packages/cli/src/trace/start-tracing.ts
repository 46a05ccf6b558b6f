import { context, propagation, trace } from '@opentelemetry/api';
import { CLI_VERSION } from '../cli-version.js';
import { exportTimeoutMs, type TracesTarget, tracesTarget } from './traces-target.js';
import { loadTracingPackages, type PackageImporter, TRACING_PACKAGES } from './tracing-packages.js';
import { warnOnExportFailure } from './warn-on-export-failure.js';

/**
 * How tracing is set up. Everything else comes from the standard OTEL_* variables of `process.env`, which
 * the SDK and the exporter read themselves.
 */
export interface TracingOptions {
  /** Where warnings go (a missing package, an unreachable collector). Default: stderr. */
  warn?: (message: string) => void;
  /** `service.name` when neither `OTEL_SERVICE_NAME` nor `OTEL_RESOURCE_ATTRIBUTES` names one. Default `skillrl`. */
  serviceName?: string;
  /** How the SDK packages are imported (tests replace it). */
  importer?: PackageImporter;
}

/** Tracing as `startTracing` set it up: on, or off at no cost. */
export interface Tracing {
  readonly enabled: boolean;
  /** Where spans go (credentials redacted), when enabled. */
  readonly target?: TracesTarget;
  /**
   * Sends the spans still queued and unregisters the provider, waiting at most `timeoutMs` (default: the
   * exporter's own timeout, `OTEL_EXPORTER_OTLP_TIMEOUT` or 10 s, plus 1 s, which also bounds the exporter's
   * retries). Resolves true when every export went through; false after a failed export or the timeout,
   * both said through `warn`: an unreachable collector delays the exit by a bounded time and never fails
   * the command.
   */
  shutdown(timeoutMs?: number): Promise<boolean>;
}

const OFF: Tracing = { enabled: false, shutdown: async () => true };

const stderr = (message: string) => process.stderr.write(`warning: ${message}\n`);

type Ctor = new (...args: never[]) => Record<string, (...args: never[]) => unknown>;
type Fn = (...args: never[]) => unknown;

function pick<T>(module: Record<string, unknown>, name: string, from: string): T {
  const value = module[name];
  if (value === undefined)
    throw new Error(`${from} has no export "${name}"; install ${from} with a version that has it`);
  return value as T;
}

/**
 * Turns on OpenTelemetry trace export when the standard variables ask for it (`tracesTarget`): loads the
 * SDK and the OTLP/HTTP exporter (optional peers) with a dynamic import, registers a Node tracer provider
 * (AsyncLocalStorage context, so episode spans parent their model and tool calls) with a batch processor,
 * the resource `service.name=skillrl` unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES says otherwise.
 * The exporter reads the rest of the OTLP variables itself (headers, timeout, compression), and the batch
 * processor the OTEL_BSP_* ones. Without the variables nothing is imported and spans stay no-ops. A missing
 * package, or any failure to set up, is a warning: the command goes on untraced.
 */
export async function startTracing(options: TracingOptions = {}): Promise<Tracing> {
  const env = process.env;
  const warn = options.warn ?? stderr;
  const target = tracesTarget(env);
  if (!target) return OFF;
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? '').trim();
  if (protocol === 'grpc') {
    warn(
      `OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported: skillrl exports OTLP/HTTP (JSON) to ${target.endpoint}; point the endpoint at the collector's OTLP/HTTP port (4318 by default)`,
    );
  }
  try {
    const loaded = await loadTracingPackages(options.importer);
    if ('missing' in loaded) {
      const install = Object.values(TRACING_PACKAGES)
        .filter((p) => loaded.missing.includes(p.name))
        .map((p) => `${p.name}@${p.range}`)
        .join(' ');
      warn(
        `${target.variable} is set, but exporting traces needs ${loaded.missing.join(', ')}, not installed: \`npm install ${install}\` (or install skillrl, which brings them); this command goes on untraced`,
      );
      return OFF;
    }
    const { sdk, exporter: exporterModule, resources } = loaded.modules;
    const from = TRACING_PACKAGES;
    const NodeTracerProvider = pick<Ctor>(sdk, 'NodeTracerProvider', from.sdk.name);
    const BatchSpanProcessor = pick<Ctor>(sdk, 'BatchSpanProcessor', from.sdk.name);
    const OTLPTraceExporter = pick<Ctor>(exporterModule, 'OTLPTraceExporter', from.exporter.name);
    const resourceFromAttributes = pick<Fn>(resources, 'resourceFromAttributes', from.resources.name);
    const defaultResource = pick<Fn>(resources, 'defaultResource', from.resources.name);
    const detectResources = pick<Fn>(resources, 'detectResources', from.resources.name);
    const envDetector = pick<unknown>(resources, 'envDetector', from.resources.name);

    type Resource = { merge(other: Resource): Resource };
    // Later merges win: the SDK's defaults, then ours, then what OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES say.
    const resource = (defaultResource as () => Resource)()
      .merge(
        (resourceFromAttributes as (a: Record<string, string>) => Resource)({
          'service.name': options.serviceName ?? 'skillrl',
          'service.version': CLI_VERSION,
        }),
      )
      .merge((detectResources as (o: { detectors: unknown[] }) => Resource)({ detectors: [envDetector] }));
    let exportFailed = false;
    const exporter = warnOnExportFailure(
      new (OTLPTraceExporter as unknown as new () => Parameters<typeof warnOnExportFailure>[0])(),
      target.endpoint,
      (message) => {
        exportFailed = true;
        warn(message);
      },
    );
    const provider = new (
      NodeTracerProvider as unknown as new (
        config: unknown,
      ) => { register(): void; shutdown(): Promise<void> }
    )({
      resource,
      spanProcessors: [new (BatchSpanProcessor as unknown as new (e: unknown) => unknown)(exporter)],
    });
    provider.register();
    // The SDK registers itself through its own copy of @opentelemetry/api; ours (the one rollout's spans go
    // through) sees it only when the two are one copy or compatible versions. Said now, not as empty traces.
    if (!trace.getTracer('@skillrl/orchestrator').startSpan('skillrl.probe').isRecording()) {
      warn(
        `the tracer provider of ${from.sdk.name} is not seen through skillrl's @opentelemetry/api (two incompatible copies are installed: \`npm ls @opentelemetry/api\`, then \`npm dedupe\`); no spans will be exported`,
      );
    }
    const timeout = exportTimeoutMs(env) + 1000;
    return {
      enabled: true,
      target,
      async shutdown(timeoutMs = timeout) {
        let timer: NodeJS.Timeout | undefined;
        const outcome = await Promise.race([
          provider.shutdown().then(
            () => 'sent' as const,
            (error: unknown) => {
              // Said once: the exporter's first failure was already reported.
              if (!exportFailed) {
                warn(`traces could not all be sent to ${target.endpoint}: ${(error as Error).message}`);
              }
              return 'failed' as const;
            },
          ),
          new Promise<'timeout'>((resolve) => {
            timer = setTimeout(() => resolve('timeout'), timeoutMs);
            timer.unref();
          }),
        ]);
        clearTimeout(timer);
        if (outcome === 'timeout') {
          warn(
            `traces still queued for ${target.endpoint} after ${timeoutMs} ms were not sent; the command's own results are complete`,
          );
        }
        // A later startTracing in this process (a test, an embedding application) starts clean.
        trace.disable();
        context.disable();
        propagation.disable();
        return outcome === 'sent';
      },
    };
  } catch (error) {
    warn(
      `tracing could not be set up (${error instanceof Error ? error.message : String(error)}); this command goes on untraced`,
    );
    return OFF;
  }
}
