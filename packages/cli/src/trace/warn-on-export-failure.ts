import { redactSecrets } from '@skillrl/core';

/** The parts of the SDK's `SpanExporter` this wrapper touches. */
interface SpanExporterLike {
  export(spans: unknown[], done: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
}

/**
 * The exporter, saying once (through `warn`) when the collector cannot be reached or refuses what it is
 * sent. The SDK reports failed exports only to its diagnostic logger, which nobody has registered: without
 * this, a wrong endpoint would cost a run its traces without a word. A run never fails over its traces.
 */
export function warnOnExportFailure<E extends SpanExporterLike>(
  exporter: E,
  endpoint: string,
  warn: (message: string) => void,
): E {
  let warned = false;
  const wrapped: SpanExporterLike = {
    export(spans, done) {
      exporter.export(spans, (result) => {
        // ExportResultCode.SUCCESS is 0.
        if (result.code !== 0 && !warned) {
          warned = true;
          const why = result.error ? `: ${redactSecrets(result.error.message)}` : '';
          warn(
            `traces could not be sent to ${endpoint}${why}; the run goes on, and later batches are tried again (check the collector and OTEL_EXPORTER_OTLP_ENDPOINT)`,
          );
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
  return wrapped as E;
}
