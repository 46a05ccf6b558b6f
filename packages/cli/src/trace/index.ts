export { TRACED_COMMANDS, withCliTracing } from './cli-tracing.js';
export { startTracing, type Tracing, type TracingOptions } from './start-tracing.js';
export { exportTimeoutMs, type TracesTarget, tracesTarget } from './traces-target.js';
export { loadTracingPackages, type PackageImporter, TRACING_PACKAGES } from './tracing-packages.js';
export { warnOnExportFailure } from './warn-on-export-failure.js';
