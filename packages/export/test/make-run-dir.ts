import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGrpo } from '@skillrl/advantage';
import {
  type Agent,
  openRunStore,
  type RunManifest,
  type RunStore,
  type Skill,
  type TaskAdapter,
  type Trajectory,
} from '@skillrl/core';
import { collectRollouts, type PlannedEpisode, planRollouts } from '@skillrl/rollout';

export interface InternalizeRunOptions {
  adapter: TaskAdapter;
  agent: Agent;
  /** Training steps, each a unit `s<t>` of `tasksPerStep` tasks × `groupSize` paired episodes. */
  steps: number;
  tasksPerStep: number;
  groupSize: number;
  /** The paired validation `v0` before training (rollouts the export must leave out). */
  validation: { split: string; limit: number };
  maxSteps: number;
  seed: number;
}

/** The episodes of one unit: each task's group, half of it with the task family's skill (paired z=1 / z=0). */
function unitPlan(
  unit: string,
  tasks: Awaited<ReturnType<TaskAdapter['load']>>,
  skills: Record<string, Skill>,
  groupSize: number,
  seed: number,
): PlannedEpisode[] {
  return planRollouts({ tasks, skills, groupSize, pairing: { rho: 0.5 }, seed }).map((e) => ({
    ...e,
    id: `${unit}/${e.id}`,
    groupId: `${unit}/${e.groupId}`,
  }));
}

async function runUnit(
  store: RunStore,
  options: InternalizeRunOptions,
  plan: PlannedEpisode[],
): Promise<Trajectory[]> {
  return collectRollouts({
    plan,
    adapter: options.adapter,
    agent: options.agent,
    concurrency: 4,
    maxSteps: options.maxSteps,
    // As the run session does: each trajectory is on disk as it ends, in finishing order.
    onTrajectory: (t) => store.append('rollouts', t),
  }).collect();
}

/**
 * A run directory as `skillrl run` leaves an internalize run with `trainer: external` (the layout of the
 * repository's docs/ARCHITECTURE.md, "The run directory"): `run.json`; `events` from `run:start` to
 * `run:end`; `rollouts` of a paired validation `v0` and of each training step `s<t>`, ids `<unit>/<planned
 * id>`; per step the update's `advantages` record `{ key, unit, rows: [{ trajectoryId, advantage }] }`.
 * Nothing is made up: the episodes are planned by rollout's `planRollouts` and played by its
 * `collectRollouts` with the given agent (against the testkit's fake server, the openai agent records the
 * messages it sent and the token ids it got back), the advantages are GRPO's over each task's group, and
 * every stream is written by core's run store. The orchestrator's own tests export run directories its
 * `skillrl run` made, so a change of the layout on either side fails one of the two.
 */
export async function makeInternalizeRun(options: InternalizeRunOptions): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `skillrl-export-${options.adapter.name}-`));
  const runId = `test-${options.adapter.name}`;
  const store = openRunStore(dir);
  const time = () => new Date().toISOString();
  try {
    const manifest: RunManifest = {
      runId,
      method: 'internalize',
      configPath: join(dir, 'config.yaml'),
      components: { adapter: `test:${options.adapter.name}`, trainer: 'registry:external' },
    };
    store.writeFile('run.json', `${JSON.stringify(manifest, null, 2)}\n`);
    store.append('events', {
      runId,
      time: time(),
      type: 'run:start',
      method: 'internalize',
      seed: options.seed,
    });
    const skills = Object.fromEntries(
      ((await options.adapter.skills?.()) ?? []).flatMap((s) => (s.families ?? []).map((f) => [f, s])),
    ) as Record<string, Skill>;

    const valid = await options.adapter.load({
      split: options.validation.split,
      limit: options.validation.limit,
    });
    await runUnit(store, options, unitPlan('v0', valid, skills, 2, options.seed));

    const pool = await options.adapter.load({
      split: 'train',
      limit: options.steps * options.tasksPerStep,
    });
    const grpo = createGrpo();
    for (let t = 1; t <= options.steps; t++) {
      const unit = `s${t}`;
      const tasks = pool.slice((t - 1) * options.tasksPerStep, t * options.tasksPerStep);
      const runs = await runUnit(
        store,
        options,
        unitPlan(unit, tasks, skills, options.groupSize, options.seed + t),
      );
      const { advantages } = grpo.estimate({
        scores: runs.map((r) => r.reward),
        groupIds: runs.map((r) => r.groupId ?? r.taskId),
      });
      store.append('advantages', {
        key: unit,
        unit,
        rows: runs.map((r, i) => ({ trajectoryId: r.id, advantage: advantages[i] ?? 0 })),
      });
      store.append('events', { runId, time: time(), type: 'step', step: t, metrics: {} });
    }
    store.append('events', { runId, time: time(), type: 'run:end', status: 'completed' });
  } finally {
    store.close();
  }
  return dir;
}
