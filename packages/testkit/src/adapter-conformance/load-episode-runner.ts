import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Agent, Environment, Skill, Task, ToolDefinition, Trajectory, Verifier } from '@skillrl/core';

/** The part of `@skillrl/rollout`'s `runEpisode` options the kit uses. */
export interface EpisodeRunnerOptions {
  agent: Agent;
  env: Environment;
  task: Task;
  verifier: Verifier;
  skill?: Skill;
  id?: string;
  seed?: number;
  tools?: ToolDefinition[];
}

/** `@skillrl/rollout`'s `runEpisode`: the one episode runner real runs use. */
export type EpisodeRunner = (options: EpisodeRunnerOptions) => Promise<Trajectory>;

// Held in a string so the bundler leaves the import to run time: rollout depends on this package for its
// own tests, so this package cannot list it as a dependency without a cycle in the workspace.
const ROLLOUT: string = '@skillrl/rollout';

async function importFrom(base: string): Promise<Record<string, unknown>> {
  const resolved = createRequire(join(base, 'noop.js')).resolve(ROLLOUT);
  return (await import(pathToFileURL(resolved).href)) as Record<string, unknown>;
}

/**
 * Loads `runEpisode` from `@skillrl/rollout`: as this package sees it, else as the project under test does
 * (its working directory). Conformance plays its episodes through the very runner real runs use, so a
 * verifier that passes here reads the trajectory real runs write (`step.info.env`).
 */
export async function loadEpisodeRunner(): Promise<EpisodeRunner> {
  let mod: Record<string, unknown> | undefined;
  let cause: unknown;
  try {
    mod = (await import(ROLLOUT)) as Record<string, unknown>;
  } catch (error) {
    cause = error;
    try {
      mod = await importFrom(process.cwd());
    } catch {
      // Reported below with the first error as the cause.
    }
  }
  const runEpisode = mod?.runEpisode;
  if (typeof runEpisode !== 'function') {
    throw new Error(
      'describeAdapterConformance plays its episodes through runEpisode of @skillrl/rollout, the runner real runs use; install it beside @skillrl/testkit (npm i -D @skillrl/rollout)',
      { cause },
    );
  }
  return runEpisode as EpisodeRunner;
}
