// A run config (the YAML/JSON a user writes, and config.json in every run directory): its types, its published
// JSON Schema, and the defaults of the sections every run shares (health, store, workers). Loading and
// checking a config file is the orchestrator's; the contract is here, so the readers of a run directory
// (report, serve, eval, export) type it without the orchestrator.
export {
  HEALTH_DEFAULTS,
  type HealthOptions,
  healthSchema,
  type ResolvedHealthOptions,
  resolveHealthOptions,
} from './health-options.js';
export { CONFIG_SCHEMA_ID, configSchema } from './run-config-schema.js';
export type {
  ComponentSpec,
  EvolveSection,
  InternalizeSection,
  LoadedConfig,
  RunConfig,
  TaskSelection,
} from './run-config-types.js';
export {
  type ResolvedStoreOptions,
  resolveStoreOptions,
  STORE_DEFAULTS,
  type StoreOptions,
  storeSchema,
} from './store-options.js';
export { type WorkersOptions, workersSchema } from './workers-options.js';
