import { MissingPackageError } from '@skillrl/core';
import { importBuiltin, type ModuleNamespace } from '@skillrl/orchestrator';

/**
 * The OpenTelemetry SDK packages that export traces: optional peers of @skillrl/cli (dependencies of
 * the `skillrl` meta-package). The 2.x SDK and 0.2xx exporter are the newest lines that declare and run on
 * Node 20; their peer range of `@opentelemetry/api` is `>=1.3.0 <1.10.0`.
 */
export const TRACING_PACKAGES = {
  sdk: { name: '@opentelemetry/sdk-trace-node', range: '^2.12.1' },
  exporter: { name: '@opentelemetry/exporter-trace-otlp-http', range: '^0.223.1' },
  resources: { name: '@opentelemetry/resources', range: '^2.12.1' },
} as const;

export type TracingModules = Record<keyof typeof TRACING_PACKAGES, ModuleNamespace>;

/** Imports a package by name (injectable, for tests of what a missing one does). */
export type PackageImporter = (name: string) => Promise<ModuleNamespace>;

const defaultImporter: PackageImporter = async (name) => {
  try {
    // This package's optional peers: beside it (npm) or linked to it (pnpm).
    return (await import(name)) as ModuleNamespace;
  } catch (error) {
    if (!notFound(error)) throw error;
    // A stricter layout: where the orchestrator looks for its own peers (the running script's folder, the
    // working directory), or a MissingPackageError.
    return importBuiltin(name, 'exporting traces (an OTEL_EXPORTER_OTLP_* endpoint is set)');
  }
};

function notFound(error: unknown): boolean {
  if (MissingPackageError.isInstance(error)) return true;
  const code = (error as { code?: string } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

/**
 * Loads the SDK packages, only ever called when tracing is asked for: an `npm install @skillrl/cli`
 * without them, tracing off, loads none. Returns the modules, or the names of those not installed.
 */
export async function loadTracingPackages(
  importer: PackageImporter = defaultImporter,
): Promise<{ modules: TracingModules } | { missing: string[] }> {
  const entries = Object.entries(TRACING_PACKAGES) as [keyof TracingModules, { name: string }][];
  const results = await Promise.allSettled(entries.map(([, p]) => importer(p.name)));
  const missing: string[] = [];
  const modules: Partial<TracingModules> = {};
  results.forEach((result, i) => {
    const [key, p] = entries[i] as [keyof TracingModules, { name: string }];
    if (result.status === 'fulfilled') modules[key] = result.value;
    else if (notFound(result.reason)) missing.push(p.name);
    else throw result.reason;
  });
  return missing.length > 0 ? { missing } : { modules: modules as TracingModules };
}
