import type { AdvantageEstimator, EstimatorBatchOverrides, EstimatorFactory } from '@skillrl/core';
import { InvalidArgumentError, RegistryError } from '@skillrl/core';
import { BUILTIN_ESTIMATORS, type BuiltinEstimatorOptions } from './builtin-estimators.js';

type Factory = (options?: unknown) => AdvantageEstimator;

// One registry per process, kept on a global symbol: this package ships an ESM and a CommonJS build, and a
// plugin that registers through `require` must be seen by a run started through `import` (the dual-package
// hazard), and so must two installed copies of the package. Built in at first use rather than by a module
// side effect, so bundlers that honour `sideEffects: false` cannot drop the built-in registrations; the
// first build to ask fills it with its built-ins.
const REGISTRY = Symbol.for('skillrl.advantage.estimator-registry');

interface SharedRegistry {
  version: 1;
  factories: Map<string, Factory>;
}

function entries(): Map<string, Factory> {
  const holder = globalThis as unknown as Record<symbol, SharedRegistry | undefined>;
  let shared = holder[REGISTRY];
  if (shared === undefined) {
    shared = {
      version: 1,
      factories: new Map(BUILTIN_ESTIMATORS.map(([name, factory]) => [name, factory as Factory])),
    };
    Object.defineProperty(globalThis, REGISTRY, { value: shared, configurable: false, enumerable: false });
  }
  return shared.factories;
}

function checkName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new InvalidArgumentError(
      'name',
      `expected a non-empty estimator name, got ${JSON.stringify(name)}`,
    );
  }
}

/**
 * Registers a factory under a name, as verl's `register_adv_est`: registering the same factory again is a
 * no-op; a different factory under a taken name throws `RegistryError` (unregister the first to replace it).
 */
export function registerEstimator<O>(name: string, factory: EstimatorFactory<O>): void {
  checkName(name);
  if (typeof factory !== 'function') {
    throw new InvalidArgumentError('factory', `expected a function (options) => estimator for "${name}"`);
  }
  const map = entries();
  const existing = map.get(name);
  if (existing === (factory as unknown as Factory)) return;
  if (existing) throw new RegistryError('advantage estimator', name, 'duplicate');
  map.set(name, factory as unknown as Factory);
}

/** Removes a name; returns whether it was registered. */
export function unregisterEstimator(name: string): boolean {
  return entries().delete(name);
}

/** Every registered name, built-ins first, then in registration order. */
export function listEstimators(): string[] {
  return [...entries().keys()];
}

/** Creates the estimator registered under `name`; unknown names throw `RegistryError` listing the known ones. */
export function createEstimator<N extends keyof BuiltinEstimatorOptions>(
  name: N,
  options?: BuiltinEstimatorOptions[N],
): AdvantageEstimator;
export function createEstimator(name: string, options?: Record<string, unknown>): AdvantageEstimator;
export function createEstimator(name: string, options?: unknown): AdvantageEstimator {
  checkName(name);
  const factory = entries().get(name);
  if (!factory) throw new RegistryError('advantage estimator', name, 'unknown', listEstimators());
  return factory(options);
}

/**
 * The batch fields that replace options of the estimator registered under `name`, as its factory declares
 * them (`factory.batchOverrides`, e.g. `skillc`'s `{ attributionStrengths: ['lambda', 'lambdaByFamily'] }`);
 * `{}` when it declares none. A runner compares them with the fields its method fills, so a config setting an
 * option the run will override is caught for any estimator, built-in or a package's, without naming one.
 */
export function estimatorBatchOverrides(name: string): EstimatorBatchOverrides {
  checkName(name);
  const factory = entries().get(name);
  if (!factory) throw new RegistryError('advantage estimator', name, 'unknown', listEstimators());
  return (factory as { batchOverrides?: EstimatorBatchOverrides }).batchOverrides ?? {};
}
