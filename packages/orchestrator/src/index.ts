/**
 * @skillrl/orchestrator — the evolve (Skill-R1) and internalize (SKILLC) loops, configs checked by JSON
 * Schema, components named by registry name or npm package, crash-safe run directories with resume. The
 * `skillrl` command over it is @skillrl/cli; evaluation (`skillrl eval`, `skills test`) is @skillrl/eval.
 */

// The two methods, and running or resuming whatever a config names.
export { type EvolveOptions, evolve } from './evolve/evolve.js';
export { type InternalizeOptions, internalize } from './internalize/internalize.js';
export { type ResumeOptions, resumeRun, runConfig } from './run/run-config.js';
// A run directory holding records its readers cannot use: refused before a resume (`--drop-damaged` moves them).
export { DamagedRecordsError } from './run/damaged-records-error.js';
export type { RunOptions, RunProgress, RunResult } from './run/run-types.js';
// Run health and layout: the error budget's stop, `resume --set` overrides, the config sections' defaults.
export { type HealthOptions, HEALTH_DEFAULTS } from '@skillrl/core';
export { type RunHealthDetails, RunHealthError } from './run/health/run-health-error.js';
export { type VoidSignalDetails, VoidSignalError, type VoidUnit } from './run/health/void-signal-error.js';
export { type ConfigOverride, OVERRIDABLE_PATHS, parseOverride } from './run/config-overrides.js';
export { STORE_DEFAULTS, type StoreOptions } from '@skillrl/core';
export type { WorkersOptions } from '@skillrl/core';
// Reading a run directory's streams in either layout (gzip segments and the open file, or one file).
export { readRunStream, readRunStreamLines, streamFiles } from '@skillrl/core';

// Configs: the published schema, loading (YAML/JSON) and every problem by path.
export { CONFIG_SCHEMA_ID, configSchema } from '@skillrl/core';
export type {
  ComponentSpec,
  EvolveSection,
  InternalizeSection,
  LoadedConfig,
  RunConfig,
  TaskSelection,
} from '@skillrl/core';
export { checkConfig, loadConfig, parseConfig } from './config/load-config.js';

// Components: built-in registry names, plugin packages, learner state through checkpoints.
export { BUILTIN_COMPONENTS } from './components/builtin-components.js';
export type {
  ComponentContext,
  ComponentKind,
  Persistence,
  ResolvedComponent,
} from './components/component-types.js';
export { type ComponentCheck, checkComponents } from './components/check-components.js';
export { type ResolvedPlugin, resolvePlugin } from './components/import-package.js';
export { MissingPackageError } from './components/missing-package-error.js';
export { PluginShapeError } from './components/plugin-shape-error.js';
export {
  type ResolvedEstimator,
  resolveComponent,
  resolveEstimator,
} from './components/resolve-component.js';

// The export for external trainers lives in @skillrl/export (`skillrl export` calls it); re-exported here
// under the names it had when it was part of this package.
export {
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportOptions,
  type ExportResult,
  type ExportRow,
  exportJsonl,
  exportRecords,
  exportRows,
  exportRun,
  type TrlRow,
  type VerlRow,
} from '@skillrl/export';

// Traces: the run unit's span (`skillrl.unit`), parent of rollout's episode spans; no-ops until an
// OpenTelemetry SDK is registered (@skillrl/cli registers one when OTEL_EXPORTER_OTLP_ENDPOINT is set).
export {
  ORCHESTRATOR_TRACER_NAME,
  traceUnit,
  UNIT_ATTRIBUTES,
  type UnitIdentity,
} from './trace/unit-span.js';

// Paired statistics live in @skillrl/core; re-exported under the names they had here.
export { type PairedDifference, pairedByTask, pairedStats, type TestOutcomes } from '@skillrl/core';

// The skill bank: a run's skill versions with provenance and measured utility; `skillrl skills export|diff`
// (`skills test`, which measures them, is @skillrl/eval's `testSkills`).
export * from './skills/index.js';

// For the CLI (@skillrl/cli): what its commands call beyond the API above — the check pass over a config
// file or value, the config as read and overridden, where a run goes and moving an earlier one aside, the
// rollout workers' check and parts, and the importer of optional peers.
export { type ConfigCheck, checkConfigFile, checkConfigValue } from './components/check-components.js';
export { importBuiltin, type ModuleNamespace } from './components/import-package.js';
export { readConfigFile } from './config/load-config.js';
export { applyOverrides } from './run/config-overrides.js';
export { redactUrl } from './run/health/describe-endpoint.js';
export { moveAside } from './run/move-aside.js';
export { runDirectoryOf } from './run/open-run.js';
export { checkWorkers } from './workers/check-workers.js';
export { loadQueue } from './workers/load-queue.js';
export { createPartsLoader } from './workers/worker-parts.js';

// For evaluation (@skillrl/eval): the parts a run is set up with (its RNG, adapter and task model; the
// tasks a selection names) and released, a run directory's checkpoint and damaged-records check, and the
// error budget an evaluation is held to, with the endpoint its messages blame.
export { loadTasks, type RunBasics, releaseAgent, setupBasics } from './run/setup-run.js';
export type { CheckpointValue } from './run/run-session.js';
export { checkDamagedRecords, type DamagedRecordsOptions } from './run/damaged-records.js';
export { ErrorBudget } from './run/health/error-budget.js';
export { type ResolvedHealthOptions, resolveHealthOptions } from '@skillrl/core';
export { type HealthStopDetails, HealthStopError } from './run/health/health-stop-error.js';
export { type EndpointInfo, rolloutEndpoint } from './run/health/describe-endpoint.js';
