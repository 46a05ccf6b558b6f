/**
 * @skillrl/orchestrator — the evolve (Skill-R1) and internalize (SKILLC) loops, configs checked by JSON
 * Schema, components named by registry name or npm package, crash-safe run directories with resume. The
 * `skillrl` command over it is @skillrl/cli; evaluation (`skillrl eval`, `skills test`) is @skillrl/eval.
 */

// The two methods, and running or resuming whatever a config names.
export { type EvolveOptions, evolve } from './evolve/evolve.js';
export { type InternalizeOptions, internalize } from './internalize/internalize.js';
export { type ResumeOptions, resumeRun, runConfig } from './run/run-config.js';
export type { RunOptions, RunProgress, RunResult } from './run/run-types.js';
export { type ConfigOverride, OVERRIDABLE_PATHS, parseOverride } from './run/config-overrides.js';
// Configs: loading (YAML/JSON) and every problem by path. The contract (RunConfig, its JSON Schema, the health,
// store and workers sections), a run's typed stops (RunHealthError, VoidSignalError, DamagedRecordsError) and
// resolution's refusals (MissingPackageError, PluginShapeError) are core's, re-exported under their names here.
export { checkConfig, loadConfig, parseConfig } from './config/load-config.js';
export {
  CONFIG_SCHEMA_ID,
  type ComponentSpec,
  configSchema,
  DamagedRecordsError,
  type EvolveSection,
  HEALTH_DEFAULTS,
  type HealthOptions,
  type InternalizeSection,
  type LoadedConfig,
  MissingPackageError,
  PluginShapeError,
  type RunConfig,
  type RunHealthDetails,
  RunHealthError,
  readRunStream,
  readRunStreamLines,
  STORE_DEFAULTS,
  type StoreOptions,
  streamFiles,
  type TaskSelection,
  type VoidSignalDetails,
  VoidSignalError,
  type VoidUnit,
  type WorkersOptions,
} from '@skillrl/core';

// Components: built-in registry names, plugin packages, learner state through checkpoints.
export { BUILTIN_COMPONENTS } from './components/builtin-components.js';
export type {
  ComponentContext,
  ComponentKind,
  Persistence,
  ResolvedComponent,
} from '@skillrl/core';
export { type ComponentCheck, checkComponents } from './components/check-components.js';
export { type ResolvedPlugin, resolvePlugin } from './components/import-package.js';
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
export { moveAside } from './run/move-aside.js';
export { runDirectoryOf } from './run/open-run.js';
export { checkWorkers } from './workers/check-workers.js';
export { loadQueue } from './workers/load-queue.js';
export { createPartsLoader } from './workers/worker-parts.js';

// For evaluation (@skillrl/eval): the parts a run is set up with (its RNG, adapter and task model; the
// tasks a selection names) and released, a run directory's checkpoint and damaged-records check, and the
// endpoint an evaluation's error budget (rollout's ErrorBudget) blames in its messages.
export { loadTasks, type RunBasics, releaseAgent, setupBasics } from './run/setup-run.js';
export type { CheckpointValue } from './run/run-session.js';
export { checkDamagedRecords, type DamagedRecordsOptions } from './run/damaged-records.js';
export { rolloutEndpoint } from './run/health/describe-endpoint.js';
