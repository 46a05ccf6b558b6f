import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LoadedConfig, RunConfig } from '@skillrl/core';
import { InvalidArgumentError, lastRunEnd, type RunManifest } from '@skillrl/core';
import { parseConfig } from '../config/load-config.js';
import { evolve } from '../evolve/evolve.js';
import { internalize } from '../internalize/internalize.js';
import { applyOverrides, type ConfigOverride } from './config-overrides.js';
import { checkDamagedRecords } from './damaged-records.js';
import type { RunOptions, RunResult } from './run-types.js';

/** Runs a loaded config with the method it names. */
export function runConfig(loaded: LoadedConfig, options: RunOptions = {}): Promise<RunResult> {
  const args = { ...options, configPath: loaded.path };
  return loaded.config.method === 'evolve' ? evolve(loaded.config, args) : internalize(loaded.config, args);
}

export interface ResumeOptions extends Omit<RunOptions, 'runDir' | 'overrides'> {
  /**
   * Changes to the config before continuing (`skillrl resume --set agent.options.baseURL=…`): only how the
   * run reaches its endpoints and runs (`OVERRIDABLE_PATHS`), checked like the config itself, and recorded
   * in the run directory.
   */
  set?: readonly ConfigOverride[];
  /**
   * Move damaged records (core's `checkRunStreams`) out of the streams into `damaged/` and continue
   * (`skillrl resume --drop-damaged`). Without it, a run directory holding any is refused before anything
   * runs, with a `DamagedRecordsError` naming each.
   */
  dropDamaged?: boolean;
}

/**
 * Continues a run from its latest checkpoint: the config comes from the run's config.json (with `set`
 * applied), packages resolve from the original config file's directory, and rollouts the interrupted unit
 * finished are reused. A run that already completed is left as it is: its summary is returned and nothing
 * is written.
 */
export function resumeRun(runDir: string, options: ResumeOptions = {}): Promise<RunResult> {
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
  // Before anything reads the streams or writes to the directory (a completed run included: its records are
  // what its report and export read).
  checkDamagedRecords(dir, {
    command: 'resume',
    ...(options.dropDamaged ? { drop: true } : {}),
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  });
  const end = lastRunEnd(dir);
  if (end?.status === 'completed' && existsSync(join(dir, 'summary.json'))) {
    if (options.set?.length) {
      options.onWarning?.('the run has already completed: --set was not applied and nothing was written');
    }
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
      metrics?: Record<string, number>;
    };
    return Promise.resolve({
      runId: manifest.runId,
      dir,
      method: manifest.method,
      status: 'completed',
      metrics: summary.metrics ?? end.metrics ?? {},
      reused: 0,
      ran: 0,
      alreadyCompleted: true,
    });
  }
  const { set, dropDamaged: _dropped, ...rest } = options;
  const changed = set?.length ? applyOverrides(config, set) : undefined;
  const checked = parseConfig(changed ? changed.config : config);
  const args = {
    ...rest,
    runDir: dir,
    configPath: manifest.configPath,
    resume: true,
    ...(changed ? { overrides: changed.applied } : {}),
  };
  return checked.method === 'evolve' ? evolve(checked, args) : internalize(checked, args);
}
