import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Agent, JsonObject, RunEvent, RunManifest } from '@skillrl/core';
import { InvalidArgumentError, LatestRecords, openRunStore } from '@skillrl/core';
import type * as Curriculum from '@skillrl/curriculum';
import {
  type CheckpointValue,
  checkDamagedRecords,
  importBuiltin,
  parseConfig,
  type ResolvedComponent,
  type RunBasics,
  type RunConfig,
  releaseAgent,
  resolveComponent,
  setupBasics,
  type TaskSelection,
} from '@skillrl/orchestrator';
import { type EvaluateOptions, type Evaluation, evaluateWith } from './evaluate.js';
import { type EvaluationTasks, evaluationTasks } from './evaluation-tasks.js';
import { trainingSkills } from './training-skills.js';

export interface EvaluateRunOptions
  extends Omit<EvaluateOptions, 'tasks' | 'agent' | 'skills' | 'seedLabel'> {
  /** The split to evaluate on (required). */
  split: string;
  /**
   * Tasks of that split (default: the limit the run's config gives that split, e.g. its `internalize.test`;
   * for a split it names nowhere, its `tasks.limit`; see `evaluationTasks`).
   */
  limit?: number;
  /**
   * Seed for loading the split (default: the seed the run loads that split with; for a split it names
   * nowhere, the run's seed + 2, as its `internalize.test` split).
   */
  seed?: number;
  onWarning?: (message: string) => void;
}

export interface RunEvaluation extends Evaluation {
  runDir: string;
  /** Training steps the evaluated policy has had (the latest checkpoint's). */
  step: number;
  /**
   * How the evaluated agent was obtained: restored from the checkpoint, rebuilt by replaying updates, or
   * `as-configured`: the run's trainer does not update the policy in process (`trainer: external`, whose
   * weights are not in the run directory), so the run's task model as its config gives it.
   */
  restored: 'checkpoint' | 'replay' | 'as-configured';
  /** What was evaluated, in words (for the CLI's header). */
  policy: string;
  /** Whether the run had finished (`run:end` completed); an unfinished run's latest checkpoint is used. */
  finished: boolean;
  tasks: TaskSelection;
  /** Which part of the run's config gave the tasks' options (`evaluationTasks`). */
  tasksFrom: EvaluationTasks['from'];
  /**
   * `test`: the split is the run's `internalize.test`, so its episodes are seeded as the run's held-out test
   * seeded them (and there are `testEpisodes` of them unless `episodes` says otherwise): the same episodes,
   * the same success rates as the run's `test_*` metrics. `eval`: seeds of an evaluation of their own.
   */
  seeds: 'test' | 'eval';
}

function readJson<T>(file: string, what: string): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (cause) {
    throw new InvalidArgumentError(
      'run directory',
      `cannot read ${what} (${file}); is it a skillrl run directory?`,
      {
        cause,
      },
    );
  }
}

/** Whether a path is a run directory (it holds run.json and config.json). */
export function isRunDirectory(path: string): boolean {
  return existsSync(join(path, 'run.json')) && existsSync(join(path, 'config.json'));
}

/**
 * Evaluates the trained policy of an internalize run (its latest checkpoint's agent) on a split, with and
 * without each family's skill — the skill context the run trained with (general sections plus the family's
 * own) — and nothing written to the run directory. A run whose trainer updates nothing in process
 * (`trainer: external`) has no trained policy here: its task model is evaluated as configured, and said so
 * (`restored: 'as-configured'`). The split's tasks are loaded with the options the run's config gives them
 * (`evaluationTasks`); past the config's error budget (`health`) it throws `EvaluationHealthError`.
 */
export async function evaluateRun(runDir: string, options: EvaluateRunOptions): Promise<RunEvaluation> {
  const dir = resolve(runDir);
  const manifest = readJson<RunManifest>(join(dir, 'run.json'), 'run.json');
  const config: RunConfig = parseConfig(readJson<unknown>(join(dir, 'config.json'), 'config.json'));
  if (config.method !== 'internalize') {
    throw new InvalidArgumentError(
      'run directory',
      `${dir} is a ${config.method} run: its task model is frozen, so there is no trained policy to evaluate; \`skillrl eval <config>\` evaluates a config's agent`,
    );
  }
  // Before the store opens it (which may write: a torn last line dropped) and the replay reads it.
  checkDamagedRecords(dir, { command: 'eval' });
  const store = openRunStore(dir, options.onWarning ? { onWarning: options.onWarning } : {});
  let checkpoint: CheckpointValue | undefined;
  let finished = false;
  let frozen = false;
  let advantages: JsonObject[] = [];
  try {
    checkpoint = store.latestSnapshot<CheckpointValue>()?.value;
    for (const e of store.iterate<RunEvent>('events')) {
      if (e.type === 'run:end') finished = (e as { status?: string }).status === 'completed';
      // The run's trainer said it updates nothing (`updatesPolicy: false`): its validations say so.
      if (e.type === 'validation' && e.frozenPolicy) frozen = true;
    }
    // Advantages are small (ids and numbers); trajectories are read back one at a time when replayed.
    if (checkpoint && !checkpoint.components.agent && !frozen) {
      advantages = store.read<JsonObject>('advantages');
    }
  } finally {
    store.close();
  }
  if (!checkpoint) {
    throw new InvalidArgumentError(
      'run directory',
      `${dir} has no checkpoint yet (no training step finished); nothing trained to evaluate`,
    );
  }
  if (!finished) {
    options.onWarning?.(
      `the run has not finished: evaluating its latest checkpoint (step ${checkpoint.completed})`,
    );
  }

  const configPath = manifest.configPath;
  // The run's shape and the replay of its updates are SKILLC's (@skillrl/curriculum).
  const curriculum = (await importBuiltin(
    '@skillrl/curriculum',
    'the curriculum',
    configPath,
  )) as typeof Curriculum;
  const basics = await setupBasics(config, configPath);
  try {
    const agent = await trainedAgent(config, basics, checkpoint, dir, advantages, frozen, curriculum);
    const skills = await trainingSkills(basics.adapter.value, config, configPath);
    const chosen = evaluationTasks(config, {
      split: options.split,
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
    });
    const tasks: TaskSelection = {
      ...chosen.tasks,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
    };
    const { split: _split, limit: _limit, seed: _seed, onWarning: _onWarning, ...rest } = options;
    // The run's own held-out test, played again: its seeds and its episodes per task and side.
    const seeds = chosen.from === 'internalize.test' ? 'test' : 'eval';
    const episodes =
      options.episodes ??
      (seeds === 'test' ? curriculum.skillcRunSettings(config.internalize).testEpisodes : undefined);
    const result = await evaluateWith(
      config,
      basics,
      {
        ...rest,
        ...(episodes !== undefined ? { episodes } : {}),
        tasks,
        agent: agent.value,
        skills,
        seedLabel: seeds,
      },
      {
        target: dir,
        again: `skillrl eval ${dir} --split ${options.split}${options.limit !== undefined ? ` --limit ${options.limit}` : ''}`,
      },
    );
    return {
      ...result,
      runDir: dir,
      step: checkpoint.completed,
      restored: agent.restored,
      policy: describePolicy(config, agent.restored, checkpoint.completed),
      finished,
      tasks,
      tasksFrom: chosen.from,
      seeds,
    };
  } finally {
    await releaseAgent(basics.agent.value);
  }
}

/** The agent the run's config names, as a short phrase: `openai (model gpt-4o-mini)`. */
function describeAgent(config: RunConfig): string {
  const spec = config.agent;
  if (typeof spec === 'string') return spec;
  const name = spec.package
    ? `${spec.package}${spec.export ? `#${spec.export}` : ''}`
    : (spec.name ?? 'agent');
  const options = (spec.options ?? {}) as Record<string, unknown>;
  const model = options.model ?? options.baseModel;
  return typeof model === 'string' ? `${name} (model ${model})` : name;
}

function describePolicy(config: RunConfig, restored: RunEvaluation['restored'], step: number): string {
  if (restored === 'checkpoint') return `trained policy after step ${step} (restored from its checkpoint)`;
  if (restored === 'replay') return `trained policy after step ${step} (rebuilt by replaying its updates)`;
  const trainer = config.internalize?.trainer;
  const name = typeof trainer === 'string' ? trainer : (trainer?.package ?? trainer?.name ?? 'its trainer');
  const why =
    name === 'external'
      ? "an external trainer's weights are not in the run directory"
      : `its trainer (${name}) does not update the policy in process`;
  return `the run's task model as configured, ${describeAgent(config)}: ${why}, so no training step is in what is evaluated (step ${step} of the run)`;
}

/**
 * The agent as the checkpoint left it: its saved state loaded, or rebuilt by replaying every update; the
 * configured agent as it is when the run's trainer updates nothing in process (`frozen`).
 */
async function trainedAgent(
  config: RunConfig,
  basics: RunBasics,
  checkpoint: CheckpointValue,
  dir: string,
  advantages: JsonObject[],
  frozen: boolean,
  curriculum: typeof Curriculum,
): Promise<{ value: Agent; restored: RunEvaluation['restored'] }> {
  const agent: ResolvedComponent<Agent> = basics.agent;
  if (frozen) return { value: agent.value, restored: 'as-configured' };
  const saved = checkpoint.components.agent;
  const persistence = agent.persistence;
  if (saved && persistence) {
    if (saved.kind === 'dir' && persistence.kind === 'dir') {
      return { value: await persistence.load(join(dir, saved.path), agent.value), restored: 'checkpoint' };
    }
    if (saved.kind === 'json' && persistence.kind === 'json') {
      await persistence.set(agent.value, saved.value);
      return { value: agent.value, restored: 'checkpoint' };
    }
  }
  // As resume does for a trainer that cannot save its state: a fresh policy from the same seed, then every
  // finished step's batch (rollouts and advantages, both on disk) in order.
  const spec = config.internalize?.trainer;
  if (spec === undefined) {
    throw new InvalidArgumentError(
      'run directory',
      'the checkpoint holds no agent state and the run names no trainer',
    );
  }
  const trainer = await resolveComponent('trainer', spec, {
    ...basics.context('trainer'),
    agent: agent.value,
  });
  // A trainer that updates nothing (a run without validations to say so): nothing to replay.
  if (trainer.value.updatesPolicy === false) return { value: agent.value, restored: 'as-configured' };
  const byKey = new Map(advantages.map((r) => [String(r.key), r]));
  const stored = new LatestRecords(dir);
  // The batch each step's update was given, as the run's trainer got it (curriculum's replay: latest
  // records, no errored rollout, step-level advantages when stored).
  await curriculum.replaySkillcUpdates({
    completed: checkpoint.completed,
    stepRecord: (t) => byKey.get(`s${t}`) as { rows?: unknown } | undefined,
    trajectory: (id) => {
      const found = stored.get(id);
      if (!found) throw new InvalidArgumentError('run directory', `rollouts.jsonl has no "${id}"`);
      return found;
    },
    update: (batch) => trainer.value.update(batch),
  });
  return { value: agent.value, restored: 'replay' };
}
