import { redactUrl } from '@skillrl/core';

/** Where traces go, when the environment asks for them. */
export interface TracesTarget {
  /** The OTLP/HTTP traces URL, as shown in messages (credentials redacted). */
  endpoint: string;
  /** The variable that turned tracing on. */
  variable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_EXPORTER_OTLP_ENDPOINT';
}

const set = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/**
 * Whether the standard OpenTelemetry variables ask for traces: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (used as
 * the full URL) or `OTEL_EXPORTER_OTLP_ENDPOINT` (the base, `/v1/traces` appended), as the OTLP exporter
 * reads them; unless `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` (the SDK's own switches).
 */
export function tracesTarget(env: NodeJS.ProcessEnv = process.env): TracesTarget | undefined {
  if (set(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true') return undefined;
  const exporters = set(env.OTEL_TRACES_EXPORTER)
    ?.toLowerCase()
    .split(',')
    .map((e) => e.trim());
  if (exporters?.every((e) => e === 'none')) return undefined;
  const traces = set(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  if (traces) return { endpoint: redactUrl(traces), variable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' };
  const base = set(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (base) {
    return {
      endpoint: redactUrl(`${base.replace(/\/+$/, '')}/v1/traces`),
      variable: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    };
  }
  return undefined;
}

/** The per-export timeout the OTLP exporter reads (`OTEL_EXPORTER_OTLP[_TRACES]_TIMEOUT`), default 10 s. */
export function exportTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', 'OTEL_EXPORTER_OTLP_TIMEOUT']) {
    const value = Number(set(env[name]));
    if (Number.isFinite(value) && value > 0) return value;
  }
  return 10_000;
}
