import { dirname, resolve } from 'node:path';
import type { RunConfig } from '@skillrl/core';
import { InvalidArgumentError, type RunManifest, redactObject, redactUrlsIn } from '@skillrl/core';
import { queueEpisodeSource } from '../workers/queue-episode-source.js';
import { editorEndpoint, rolloutEndpoint } from './health/describe-endpoint.js';
import { RunSession } from './run-session.js';
import type { RunOptions } from './run-types.js';

/** Where a config's run lives: `<config dir>/<runDir>/<name>` unless the caller says otherwise. */
export function runDirectoryOf(config: RunConfig, configPath: string, override?: string): string {
  if (override) return resolve(override);
  return resolve(
    dirname(configPath),
    config.runDir ?? 'runs',
    config.name ?? `${config.method}-${config.seed}`,
  );
}

/**
 * Opens the run directory. A fresh run writes config.json (secrets redacted) and run.json; `resume` requires
 * that they exist, and a fresh start refuses a directory that already holds a run. A resume with overrides
 * (`skillrl resume --set …`) rewrites config.json with them and appends what changed to overrides.jsonl.
 */
export function openRun(
  config: RunConfig,
  configPath: string,
  options: RunOptions,
  resume: boolean,
  components: Record<string, string>,
): RunSession {
  const dir = runDirectoryOf(config, configPath, options.runDir);
  const session = new RunSession(dir, options, {
    ...(config.health ? { health: config.health } : {}),
    ...(config.store ? { store: config.store } : {}),
    endpoints: { rollout: rolloutEndpoint(config), editor: editorEndpoint(config) },
  });
  // Before config.json is written: a password in the Redis URL is registered as a secret by then.
  if (config.workers)
    session.useEpisodeSource(queueEpisodeSource(config, configPath, session, options.onWarning));
  if (session.resumed && !resume) {
    session.close();
    throw new InvalidArgumentError(
      'run directory',
      `${dir} already holds a run; continue it with \`skillrl resume ${dir}\`, start over with \`skillrl run <config> --fresh\` (the old run is moved aside, not deleted), or set another "name" in the config`,
    );
  }
  if (!session.resumed) {
    session.writeJson('config.json', config);
    const manifest: RunManifest = { runId: session.runId, method: config.method, configPath, components };
    session.writeJson('run.json', manifest);
  } else if (options.overrides && options.overrides.length > 0) {
    // Redacted like config.json: a value shaped like a key never reaches the run directory.
    session.store.append(
      'overrides',
      redactObject(
        redactUrlsIn({ time: new Date().toISOString(), set: JSON.parse(JSON.stringify(options.overrides)) }),
      ),
    );
    session.writeJson('config.json', config);
  }
  return session;
}
