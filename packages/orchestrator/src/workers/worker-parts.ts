import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Agent, InvalidArgumentError, type TaskAdapter } from '@skillrl/core';
import { parseConfig } from '../config/load-config.js';
import { setupBasics } from '../run/setup-run.js';
import type { WorkerContext } from './queue-episode-source.js';

/**
 * A worker's parts for a run, built the way the session builds them (`setupBasics`: the same seeds, the
 * same registry and packages, resolved from `folder`), then the agent's state from the job, if any. API keys
 * come from this process's environment, by the names the config gives. The shapes are @skillrl/queue's
 * `EpisodeBlobs` and `EpisodeParts` (`startRolloutWorker`'s `load`), declared here without naming that
 * optional peer.
 */
export function createPartsLoader(
  folder: string,
  unpackDir: (data: Buffer, dir: string) => Promise<void>,
): (blobs: { context: Buffer; state?: Buffer }) => Promise<{ adapter: TaskAdapter; agent: Agent }> {
  const configPath = join(folder, 'skillrl.config');
  return async ({ context, state }) => {
    const parsed = JSON.parse(context.toString('utf8')) as WorkerContext;
    if (parsed.v !== 1) {
      throw new InvalidArgumentError(
        'job context',
        `format ${String(parsed.v)} is not known; update @skillrl/orchestrator on the worker`,
      );
    }
    const config = parseConfig(parsed.config);
    const basics = await setupBasics(config, configPath);
    let agent = basics.agent.value;
    const persistence = basics.agent.persistence;
    if (state && persistence?.kind === 'json') {
      await persistence.set(agent, (JSON.parse(state.toString('utf8')) as { json: never }).json);
    } else if (state && persistence?.kind === 'dir') {
      const dir = await mkdtemp(join(tmpdir(), 'skillrl-worker-state-'));
      try {
        await unpackDir(state, dir);
        agent = await persistence.load(dir, agent);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    return { adapter: basics.adapter.value, agent };
  };
}
