import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';

// Configs for the tests of the loops: offline components (a planner agent, a vocabulary editor, a noise
// trainer) loaded as a plugin module, and the two methods' small configs. @skillrl/cli's tests use them too.

export const FIXTURES = resolve(__dirname, 'fixtures/offline-components.mjs');

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `skillrl-${prefix}-`));
}

/** Writes a config file (YAML, or JSON for a `.json` name) in `dir`; returns its path. */
export function writeConfig(dir: string, config: object, file = 'config.yaml'): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, file.endsWith('.json') ? JSON.stringify(config, null, 2) : stringify(config));
  return path;
}

export const plannerAgent = (options: Record<string, unknown> = {}) => ({
  package: FIXTURES,
  export: 'createPlannerAgent',
  options: { noise: 0.5, slack: 1, ...options },
});

export function evolveConfig(overrides: Record<string, unknown> = {}, evolve: Record<string, unknown> = {}) {
  return {
    method: 'evolve',
    seed: 7,
    name: 'evolve-test',
    adapter: 'household',
    tasks: { split: 'train', limit: 2 },
    agent: plannerAgent(),
    concurrency: 4,
    maxSteps: 20,
    // Sized for speed, not learning (see internalizeConfig): the no-signal guard is off here.
    health: { voidUnits: 0 },
    evolve: {
      mode: 'grpo',
      generations: 2,
      candidates: 3,
      episodes: 2,
      generator: { package: FIXTURES, export: 'createVocabularyGenerator', options: { bias: -0.5 } },
      ...evolve,
    },
    ...overrides,
  };
}

export function internalizeConfig(
  overrides: Record<string, unknown> = {},
  section: Record<string, unknown> = {},
) {
  return {
    method: 'internalize',
    seed: 11,
    name: 'internalize-test',
    adapter: 'household',
    tasks: { split: 'train', limit: 12 },
    agent: plannerAgent({ noise: 0.6 }),
    concurrency: 4,
    maxSteps: 20,
    // These fixtures are sized for speed, not learning: most of their steps carry no learning signal, so
    // the no-signal guard is off here (it has its own tests: signal-guard.test.ts).
    health: { voidUnits: 0 },
    internalize: {
      steps: 4,
      tasksPerStep: 3,
      groupSize: 4,
      validateEvery: 2,
      validationEpisodes: 1,
      validation: { split: 'valid_seen', limit: 6 },
      curriculum: { tau: 0.01 },
      trainer: { package: FIXTURES, export: 'createNoiseTrainer', options: { lr: 0.5 } },
      ...section,
    },
    ...overrides,
  };
}
