import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError } from '@skillrl/core';
import type { LoadedConfig, RunConfig } from '../config/config-types.js';
import { parseConfig } from '../config/load-config.js';
import { evolve } from '../evolve/evolve.js';
import { internalize } from '../internalize/internalize.js';
import type { RunManifest } from './run-session.js';
import type { RunOptions, RunResult } from './run-types.js';

/** Runs a loaded config with the method it names. */
export function runConfig(loaded: LoadedConfig, options: RunOptions = {}): Promise<RunResult> {
  const args = { ...options, configPath: loaded.path };
  return loaded.config.method === 'evolve' ? evolve(loaded.config, args) : internalize(loaded.config, args);
}

/**
 * Continues a run from its latest checkpoint: the config comes from the run's config.json, packages resolve
 * from the original config file's directory, and rollouts the interrupted unit finished are reused.
 */
export function resumeRun(runDir: string, options: Omit<RunOptions, 'runDir'> = {}): Promise<RunResult> {
  const dir = resolve(runDir);
  let manifest: RunManifest;
  let config: RunConfig;
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunManifest;
    config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as RunConfig;
  } catch (cause) {
    throw new InvalidArgumentError(
      'run directory',
      `${dir} has no readable run.json and config.json; is it a skillrl run directory?`,
      { cause },
    );
  }
  const checked = parseConfig(config);
  const args = { ...options, runDir: dir, configPath: manifest.configPath, resume: true };
  return checked.method === 'evolve' ? evolve(checked, args) : internalize(checked, args);
}
