import { appendFileSync } from 'node:fs';
import {
  type CurriculumState,
  createRng,
  formatSkill,
  openRunStore,
  type Rng,
  type RunEvent,
  type RunStore,
  type Skill,
  type Trajectory,
  taskSlug,
} from '@skillrl/core';

/**
 * Seeded run directories shaped like the orchestrator's: config.json, run.json, events.jsonl,
 * rollouts.jsonl, skills/<gen>/<task>/<name>/SKILL.md, checkpoints — with learning dynamics a reader can see
 * (reward rising over generations; the skill-free success catching up and skills being retired).
 */

export const HOUSEHOLD_TYPES = ['pick', 'clean', 'heat', 'cool', 'look', 'pick-two'] as const;

interface Clock {
  now(): string;
  tick(ms: number): void;
}

function clockFrom(startIso: string): Clock {
  let t = Date.parse(startIso);
  return {
    now: () => new Date(t).toISOString(),
    tick: (ms) => {
      t += Math.round(ms);
    },
  };
}

type EventBody = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'runId' | 'time'> : never) : never;

function emitter(store: RunStore, runId: string, clock: Clock) {
  return (event: EventBody) => store.append('events', { ...event, runId, time: clock.now() });
}

function trajectory(
  rng: Rng,
  fields: Omit<Trajectory, 'steps' | 'reward' | 'verdict'> & { passed: boolean; partial: number },
): Trajectory {
  const { passed, partial, ...rest } = fields;
  const n = 2 + rng.int(6);
  const steps = Array.from({ length: n }, (_, index) => ({
    index,
    observation: `You are in the middle of a room. (step ${index})`,
    action:
      index === n - 1
        ? 'put apple 1 in/on fridge 1'
        : rng.pick(['go to countertop 1', 'take apple 1', 'look']),
    reward: index === n - 1 && passed ? 1 : 0,
    done: index === n - 1,
  }));
  const reward = passed ? 1 : partial;
  return {
    ...rest,
    steps,
    reward,
    verdict: { score: reward, passed, reason: passed ? 'goal reached' : 'goal not reached' },
    durationMs: 40 + rng.int(400),
  };
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

export interface EvolveFixtureOptions {
  seed: number;
  tasks?: number;
  generations?: number;
  candidates?: number;
  groupSize?: number;
  mode?: 'grpo' | 'inference';
  /** Simulate a crash: stop after this generation, with no run:end and a torn last event line. */
  crashAfterGeneration?: number;
}

const SKILL_LINES = [
  'Read the goal and name the target object and the receptacle.',
  'Go to the most likely location of the object first (countertop, cabinet, drawer).',
  'Take the object as soon as you see it; do not open receptacles you already checked.',
  'If the goal asks for a clean object, use the sinkbasin before placing it.',
  'Check the object is in your inventory before going to the receptacle.',
  'Open closed receptacles (fridge, microwave) before putting things in them.',
  'When an action fails, look around and pick another admissible action instead of repeating it.',
  'Finish with the exact put action: "put <object> in/on <receptacle>".',
];

function skillFor(taskIndex: number, lines: string[], family: string): Skill {
  const extra =
    taskIndex === 0
      ? // Text a page must show as text: a URL that is never fetched and markup that is never run.
        [
          '',
          'Reference: https://example.com/alfworld-notes (plain text, never fetched).',
          'Never type <script>alert(1)</script> as an action.',
        ]
      : [];
  return {
    name: `household-${family}`,
    description: `How to solve ${family} tasks in the household environment.`,
    body: `# ${family} procedure\n\n${lines.map((l, i) => `${i + 1}. ${l}`).join('\n')}\n${extra.join('\n')}\n`,
    families: [family],
  };
}

/** A Skill-R1 (evolve) run: per task, K candidate skills per generation, M rollouts each. */
export function makeEvolveRun(dir: string, options: EvolveFixtureOptions): void {
  const { seed } = options;
  const tasks = options.tasks ?? 3;
  const G = options.generations ?? 4;
  const K = options.candidates ?? 4;
  const M = options.groupSize ?? 4;
  const mode = options.mode ?? 'grpo';
  const rng = createRng(seed);
  const clock = clockFrom('2026-01-05T09:00:00.000Z');
  const store = openRunStore(dir, { onWarning: () => {} });
  const runId = `evolve-${seed}`;
  const emit = emitter(store, runId, clock);
  const config = {
    method: 'evolve',
    seed,
    adapter: '@skillrl/task-household',
    evolve: { mode, generations: G, candidates: K, groupSize: M },
  };
  store.writeFile('config.json', `${JSON.stringify(config, null, 2)}\n`);
  store.writeFile(
    'run.json',
    `${JSON.stringify({ runId, method: 'evolve', configPath: 'skillrl.config.json' })}\n`,
  );
  emit({ type: 'run:start', method: `evolve:${mode}`, seed, config });

  const taskList = Array.from({ length: tasks }, (_, i) => {
    const family = HOUSEHOLD_TYPES[i % HOUSEHOLD_TYPES.length] as string;
    return {
      id: `household/train/${family}/${i}`,
      family,
      base: 0.15 + 0.2 * rng.fork(`base${i}`).float(),
      lines: SKILL_LINES.slice(0, 3),
    };
  });
  const lastGen = options.crashAfterGeneration ?? G;
  for (let g = 0; g <= lastGen; g++) {
    const grng = rng.fork(`g${g}`);
    for (const [ti, task] of taskList.entries()) {
      // Skill quality climbs with each generation's edits, with diminishing returns.
      const quality = clamp01(task.base + 0.6 * (1 - Math.exp(-g / 2.2)));
      const kCount = g === 0 ? 1 : K;
      const candidateRewards: number[] = [];
      for (let k = 0; k < kCount; k++) {
        const p = clamp01(quality + grng.normal(0, 0.08));
        let sum = 0;
        for (let m = 0; m < M; m++) {
          const passed = grng.bernoulli(p);
          const t = trajectory(grng, {
            id: `g${g}/${taskSlug(task.id)}/c${k}/${m}`,
            taskId: task.id,
            family: task.family,
            condition: 1,
            generation: g,
            candidate: k,
            groupId: `g${g}/${task.id}/c${k}`,
            index: m,
            skill: { name: `household-${task.family}` },
            passed,
            partial: passed ? 1 : Math.round(grng.float() * 3) / 10,
          });
          const failed = grng.bernoulli(0.02);
          if (failed) t.error = { code: 'MODEL_TIMEOUT', message: 'model call timed out after 3 retries' };
          store.append('rollouts', t);
          emit({
            type: 'rollout',
            trajectoryId: t.id,
            taskId: t.taskId,
            family: t.family,
            condition: 1,
            reward: t.reward,
            passed: t.verdict.passed,
            generation: g,
            candidate: k,
            ...(failed ? { error: 'MODEL_TIMEOUT' } : {}),
          });
          sum += t.reward;
          clock.tick(800 + grng.int(1200));
        }
        candidateRewards.push(sum / M);
      }
      if (g > 0) {
        // The editor's change this generation: add the next procedure line, or rewrite one.
        const lines = task.lines;
        if (lines.length < SKILL_LINES.length && grng.bernoulli(0.7))
          lines.push(SKILL_LINES[lines.length] as string);
        else {
          const at = grng.int(lines.length);
          lines[at] = `${lines[at]} Double-check this step.`;
        }
      }
      const skill = skillFor(ti, task.lines, task.family);
      store.writeFile(`skills/${g}/${taskSlug(task.id)}/${skill.name}/SKILL.md`, formatSkill(skill));
      const meanReward = candidateRewards.reduce((a, b) => a + b, 0) / candidateRewards.length;
      emit({
        type: 'generation',
        taskId: task.id,
        generation: g,
        meanReward,
        bestReward: Math.max(...candidateRewards),
        bestSkill: skill.name,
        ...(g > 0
          ? {
              metrics: {
                candidates: kCount,
                adv_std: 0.5 + grng.float() * 0.3,
                ...(mode === 'grpo' ? { train_loss: 1.2 * Math.exp(-g / 3) + grng.float() * 0.05 } : {}),
              },
            }
          : {}),
      });
    }
    const snapshot = store.writeSnapshot('checkpoint', { completed: g + 1 });
    emit({ type: 'checkpoint', step: g + 1, path: `checkpoints/${snapshot.path.split('/').pop()}` });
  }
  if (options.crashAfterGeneration === undefined) {
    emit({ type: 'run:end', status: 'completed', metrics: { rollouts: store.count('rollouts') } });
    store.close();
  } else {
    store.close();
    // A write cut short by the crash: half a JSON record without its newline.
    appendFileSync(`${dir}/events.jsonl`, '{"type":"rollout","runId":"evolve-');
  }
}

export interface InternalizeFixtureOptions {
  seed: number;
  families?: readonly string[];
  steps?: number;
  validateEvery?: number;
  /** Rollouts per family per training step. */
  rolloutsPerStep?: number;
  validationEpisodes?: number;
  /** Simulate a crash: stop after this step, with no run:end and a torn last line. */
  crashAfterStep?: number;
}

/**
 * A SKILLC (internalize) run. Success without the skill follows a logistic rise that starts later for
 * harder types; the curriculum smooths the validation gap and retires a type once it stays small.
 */
export function makeInternalizeRun(dir: string, options: InternalizeFixtureOptions): void {
  const { seed } = options;
  const families = options.families ?? HOUSEHOLD_TYPES;
  const steps = options.steps ?? 40;
  const every = options.validateEvery ?? 4;
  const perStep = options.rolloutsPerStep ?? 6;
  const episodes = options.validationEpisodes ?? 24;
  const rng = createRng(seed);
  const clock = clockFrom('2026-01-06T14:30:00.000Z');
  const store = openRunStore(dir, { onWarning: () => {} });
  const runId = `internalize-${seed}`;
  const emit = emitter(store, runId, clock);
  const config = {
    method: 'internalize',
    seed,
    adapter: '@skillrl/task-household',
    internalize: { steps, validateEvery: every, curriculum: 'skillc', rolloutsPerTask: perStep },
  };
  store.writeFile('config.json', `${JSON.stringify(config, null, 2)}\n`);
  store.writeFile(
    'run.json',
    `${JSON.stringify({ runId, method: 'internalize', configPath: 'skillrl.config.json' })}\n`,
  );
  emit({ type: 'run:start', method: 'internalize', seed, config });

  const profile = families.map((family, i) => {
    const frng = rng.fork(`family:${family}`);
    return {
      family,
      withSkill: 0.78 + 0.15 * frng.float(),
      midpoint: steps * (0.25 + 0.5 * (i / Math.max(1, families.length - 1))),
      width: steps / 10,
    };
  });
  const pWithout = (k: number, t: number) => {
    const f = profile[k] as (typeof profile)[number];
    return 0.08 + (f.withSkill - 0.1) / (1 + Math.exp(-(t - f.midpoint) / f.width));
  };
  const smoothed = new Map<string, number>();
  const lowFor = new Map<string, number>();
  const retired = new Set<string>();
  let state: CurriculumState = {
    step: 0,
    lambda: Object.fromEntries(families.map((f) => [f, 1])),
    rho: Object.fromEntries(families.map((f) => [f, 0.5])),
    active: [...families],
    retired: [],
  };
  const last = options.crashAfterStep ?? steps;
  for (let step = 1; step <= last; step++) {
    const srng = rng.fork(`step${step}`);
    let successWith = 0;
    let nWith = 0;
    let successWithout = 0;
    let nWithout = 0;
    families.forEach((family, k) => {
      const f = profile[k] as (typeof profile)[number];
      const rho = state.rho[family] ?? 0;
      const nw = Math.round(rho * perStep);
      for (let i = 0; i < perStep; i++) {
        const condition = i < nw ? 1 : 0;
        const p = condition === 1 ? f.withSkill : pWithout(k, step);
        const passed = srng.bernoulli(p);
        const t = trajectory(srng, {
          id: `s${step}/${family}/${i}`,
          taskId: `household/train/${family}/${srng.int(50)}`,
          family,
          condition,
          groupId: `s${step}/${family}`,
          index: i,
          ...(condition === 1 ? { skill: { name: `household-${family}` } } : {}),
          passed,
          partial: 0,
        });
        store.append('rollouts', t);
        emit({
          type: 'rollout',
          trajectoryId: t.id,
          taskId: t.taskId,
          family,
          condition,
          reward: t.reward,
          passed,
        });
        if (condition === 1) {
          nWith++;
          if (passed) successWith++;
        } else {
          nWithout++;
          if (passed) successWithout++;
        }
        clock.tick(300 + srng.int(600));
      }
    });
    const progress = step / steps;
    emit({
      type: 'step',
      step,
      metrics: {
        loss: 0.9 * Math.exp(-3 * progress) + 0.05 * srng.float(),
        kl: 0.002 + 0.01 * progress * srng.float(),
        entropy: 1.6 - 0.8 * progress + 0.05 * srng.normal(),
        success_with: nWith ? successWith / nWith : 0,
        success_without: nWithout ? successWithout / nWithout : 0,
      },
    });
    if (step % every === 0) {
      const vrng = rng.fork(`validate${step}`);
      const result: Record<
        string,
        {
          withSkill: number;
          withoutSkill: number;
          episodes: number;
          withSkillEpisodes: number;
          withoutSkillEpisodes: number;
        }
      > = {};
      families.forEach((family, k) => {
        const f = profile[k] as (typeof profile)[number];
        let a = 0;
        let b = 0;
        for (let e = 0; e < episodes; e++) {
          if (vrng.bernoulli(f.withSkill)) a++;
          if (vrng.bernoulli(pWithout(k, step))) b++;
        }
        result[family] = {
          withSkill: a / episodes,
          withoutSkill: b / episodes,
          episodes: 2 * episodes,
          withSkillEpisodes: episodes,
          withoutSkillEpisodes: episodes,
        };
        const gap = a / episodes - b / episodes;
        const s = 0.5 * (smoothed.get(family) ?? gap) + 0.5 * gap;
        smoothed.set(family, s);
        lowFor.set(family, s < 0.08 ? (lowFor.get(family) ?? 0) + 1 : 0);
        if ((lowFor.get(family) ?? 0) >= 2) retired.add(family);
      });
      const scale = (s: number) => clamp01(s / 0.5);
      state = {
        step,
        lambda: Object.fromEntries(
          families.map((f) => [f, retired.has(f) ? 0 : scale(smoothed.get(f) ?? 0)]),
        ),
        rho: Object.fromEntries(
          families.map((f) => [f, retired.has(f) ? 0 : 0.15 + 0.6 * scale(smoothed.get(f) ?? 0)]),
        ),
        active: families.filter((f) => !retired.has(f)),
        retired: families.filter((f) => retired.has(f)),
      };
      emit({ type: 'validation', step, validation: { step, families: result }, curriculum: state });
      const snapshot = store.writeSnapshot('checkpoint', { completed: step });
      emit({ type: 'checkpoint', step, path: `checkpoints/${snapshot.path.split('/').pop()}` });
    }
  }
  if (options.crashAfterStep === undefined) {
    emit({ type: 'run:end', status: 'completed', metrics: { rollouts: store.count('rollouts') } });
    store.close();
  } else {
    store.close();
    appendFileSync(`${dir}/events.jsonl`, '{"type":"step","step":');
  }
}
