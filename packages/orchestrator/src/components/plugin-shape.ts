import type { ComponentKind } from '@skillrl/core';
import type { ModuleNamespace } from './import-package.js';

/** What each kind of component must have, as the contracts in @skillrl/core define it. */
const REQUIRED: Record<ComponentKind, { contract: string; methods: string[]; fields?: string[] }> = {
  adapter: {
    contract: 'TaskAdapter',
    methods: ['load', 'createEnvironment', 'verifier'],
    fields: ['name', 'families'],
  },
  agent: { contract: 'Agent', methods: ['act'] },
  generator: { contract: 'SkillGenerator', methods: ['propose'] },
  trainer: { contract: 'PolicyTrainer', methods: ['update'] },
  estimator: { contract: 'AdvantageEstimator', methods: ['estimate'] },
};

export function contractOf(kind: ComponentKind): string {
  return REQUIRED[kind].contract;
}

/**
 * What a value lacks to be a component of this kind (`TaskAdapter: missing load(), families`), or
 * undefined when it has every required method and field.
 */
export function shapeProblem(kind: ComponentKind, value: unknown): string | undefined {
  const { contract, methods, fields = [] } = REQUIRED[kind];
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    return `${contract}: got ${value === null ? 'null' : typeof value}`;
  }
  const v = value as Record<string, unknown>;
  const missing = [
    ...methods.filter((m) => typeof v[m] !== 'function').map((m) => `${m}()`),
    ...fields.filter((f) => v[f] === undefined),
  ];
  return missing.length > 0 ? `${contract}: missing ${missing.join(', ')}` : undefined;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') {
    const keys = Object.keys(value as object);
    return keys.length > 0
      ? `object with ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}`
      : 'object';
  }
  return typeof value;
}

/** `name (type)` for every export of a module, for error messages. */
export function listExports(mod: ModuleNamespace): string[] {
  return Object.keys(mod)
    .sort()
    .map((k) => `${k} (${describeValue(mod[k])})`);
}
