import type {
  Agent,
  ComponentContext,
  ResolvedComponent,
  Rng,
  RunConfig,
  Task,
  TaskAdapter,
  TaskSelection,
} from '@skillrl/core';
import { createRng, InvalidArgumentError, ValidationError } from '@skillrl/core';
import { resolveComponent } from '../components/resolve-component.js';
import { checkConfigAgainstAdapter } from '../config/check-config-semantics.js';
import { withSkillFolder } from './skill-folder-adapter.js';

export interface RunBasics {
  root: Rng;
  adapter: ResolvedComponent<TaskAdapter>;
  agent: ResolvedComponent<Agent>;
  context: (role: string) => ComponentContext;
}

/** The parts both methods share: the root RNG, the adapter and the task model, each seeded by role. */
export async function setupBasics(config: RunConfig, configPath: string): Promise<RunBasics> {
  const root = createRng(config.seed);
  const base = (role: string): ComponentContext => ({ seed: root.seedFor(`component:${role}`), configPath });
  const resolved = await resolveComponent('adapter', config.adapter, base('adapter'));
  // The config's own skill folder (`skills: { dir }`) replaces the adapter's skills, for every method.
  const adapter = { ...resolved, value: withSkillFolder(resolved.value, config, configPath) };
  // What cannot work with this adapter (a step editor without a vocabulary, the skill-reading agent without
  // admissible actions, ...) fails here, as `skillrl check` reports it, before any other part is built.
  const problems = await checkConfigAgainstAdapter(config, adapter.value);
  if (problems.length > 0) throw new ValidationError('config', problems);
  const context = (role: string): ComponentContext => ({ ...base(role), adapter: adapter.value });
  const agent = await resolveComponent('agent', config.agent, context('agent'));
  return { root, adapter, agent, context };
}

/**
 * Releases what the task model holds open (a program agent's proxy, MCP server and running programs): called
 * when a command is done with it, whatever ended the command. Agents without `close` hold nothing.
 */
export async function releaseAgent(agent: Agent | undefined): Promise<void> {
  const close = (agent as { close?: () => unknown } | undefined)?.close;
  if (typeof close === 'function') await close.call(agent);
}

/** Loads the tasks a selection names; the seed defaults to the run seed. */
export async function loadTasks(
  adapter: TaskAdapter,
  selection: TaskSelection,
  seed: number,
): Promise<Task[]> {
  const tasks = await adapter.load({
    split: selection.split,
    seed: selection.seed ?? seed,
    ...(selection.limit !== undefined ? { limit: selection.limit } : {}),
  });
  if (tasks.length === 0) {
    throw new InvalidArgumentError(
      'tasks.split',
      `adapter "${adapter.name}" returned no tasks for split "${selection.split}"`,
    );
  }
  return tasks;
}

export function sourcesOf(
  components: Record<string, ResolvedComponent<unknown> | { source: string } | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [role, c] of Object.entries(components)) if (c) out[role] = c.source;
  return out;
}
