import type {
  EpisodeSummary,
  GenerationRecord,
  JsonObject,
  JsonValue,
  Skill,
  SkillCandidate,
  SkillGenerator,
  Task,
  Trajectory,
} from '@skillrl/core';
import { formatSkill, InvalidArgumentError, taskSlug, validateSkill } from '@skillrl/core';
import { planRollouts } from '@skillrl/rollout';
import type { ResolvedComponent } from '../components/component-types.js';
import { resolveComponent, resolveEstimator } from '../components/resolve-component.js';
import type { RunConfig } from '../config/config-types.js';
import { parseConfig } from '../config/load-config.js';
import { openRun } from '../run/open-run.js';
import type { RunOptions, RunResult } from '../run/run-types.js';
import { loadTasks, setupBasics, sourcesOf } from '../run/setup-run.js';
import { episodeSummary } from './episode-summary.js';

export interface EvolveOptions extends RunOptions {
  /** The config file's path: packages resolve from its directory (default: a file in the working directory). */
  configPath?: string;
  /** Continue the run in `runDir` from its latest checkpoint. */
  resume?: boolean;
}

interface TaskState {
  history: GenerationRecord[];
  current?: Skill;
  /** Mean reward of the previous generation (s0's rollouts before generation 1). */
  previousMean?: number;
}

interface EvolveState {
  tasks: Record<string, TaskState>;
  generationMeans: number[];
}

/**
 * One set of task instances going through the loop: the training tasks (prefix `g`, the editor learns in
 * `grpo` mode) or the held-out tasks (prefix `h`, the editor frozen). Units, stored candidates and
 * rollout ids carry the prefix, so the two never mix on disk.
 */
interface Track {
  prefix: 'g' | 'h';
  tasks: Task[];
  states: Record<string, TaskState>;
  means: number[];
  train: boolean;
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const EXAMPLES = 3;

function initialSkill(task: Task, skills: readonly Skill[]): Skill | undefined {
  // The most specific skill for the family: a family skill beats the general one.
  const matching = skills.filter((s) => s.families?.includes(task.family));
  matching.sort((a, b) => (a.families?.length ?? 0) - (b.families?.length ?? 0));
  return matching[0];
}

function recordFor(
  generation: number,
  skill: Skill,
  reward: number,
  runs: readonly Trajectory[],
): GenerationRecord {
  const failures: EpisodeSummary[] = [];
  const successes: EpisodeSummary[] = [];
  for (const t of runs) {
    const list = t.verdict.passed ? successes : failures;
    if (list.length < EXAMPLES) list.push(episodeSummary(t));
  }
  return { generation, skill, reward, failures, successes };
}

/**
 * Skill-R1 (arXiv 2605.09359): per task instance, generations 1..G; the editor proposes K candidate skills
 * from the task and the history, the frozen task model runs M episodes under each, the `skill-r1`
 * estimator scores candidates (A_intra + λ·A_inter), the editor learns from them in `grpo` mode, and the
 * best candidate is carried forward. Generation 0 measures the starting skill s0.
 */
export async function evolve(input: RunConfig, options: EvolveOptions = {}): Promise<RunResult> {
  const config = parseConfig(input);
  if (config.method !== 'evolve') {
    throw new InvalidArgumentError('method', `evolve() runs method "evolve", got "${config.method}"`);
  }
  const configPath = options.configPath ?? `${process.cwd()}/skillrl.config`;
  const section = config.evolve ?? {};
  const variant = section.variant ?? 'skill-r1';
  const generations = variant === 'skill-r1' ? (section.generations ?? 3) : variant === 'no-skill' ? 0 : 1;
  const K = section.candidates ?? 4;
  const M = section.episodes ?? 2;
  const lambda = variant === 'vanilla-grpo' ? 0 : (section.lambda ?? 1);
  const mode = section.mode ?? 'inference';
  const finalEpisodes = section.finalEpisodes ?? 0;
  // Every variant with an editor starts from s0 (vanilla GRPO too: one generation of revisions of s0, scored
  // within the generation only), so the rows of the table differ in the method, not in the starting point.
  const useS0 = variant !== 'no-skill' && (section.initialSkill ?? 'adapter') === 'adapter';

  // Everything a config names is resolved before the first rollout, so a bad name fails fast.
  const basics = await setupBasics(config, configPath);
  const adapter = basics.adapter.value;
  let generator: ResolvedComponent<SkillGenerator> | undefined;
  if (variant !== 'no-skill') {
    generator = await resolveComponent(
      'generator',
      section.generator as NonNullable<typeof section.generator>,
      basics.context('generator'),
    );
    if (mode === 'grpo' && typeof generator.value.update !== 'function') {
      throw new InvalidArgumentError(
        'evolve.mode',
        `"grpo" trains the editor, but ${generator.source} has no update(); use "inference"`,
      );
    }
  }
  const estimator = await resolveEstimator(config.estimator ?? 'skill-r1', configPath);
  const tasks = await loadTasks(adapter, config.tasks, config.seed);
  const heldOutTasks = section.heldOut ? await loadTasks(adapter, section.heldOut, config.seed + 3) : [];
  const overlap = heldOutTasks.find((t) => tasks.some((u) => u.id === t.id));
  if (overlap) {
    throw new InvalidArgumentError(
      'evolve.heldOut',
      `task ${overlap.id} is also a training task; choose another split or seed for the held-out tasks`,
    );
  }
  const bank = useS0 && adapter.skills ? await adapter.skills() : [];

  const session = openRun(
    config,
    configPath,
    options,
    options.resume === true,
    sourcesOf({ adapter: basics.adapter, agent: basics.agent, generator, estimator }),
  );
  try {
    const root = basics.root;
    const agent = basics.agent.value;
    const runCtx = {
      adapter,
      agent,
      concurrency: config.concurrency ?? 8,
      ...(config.maxSteps ? { maxSteps: config.maxSteps } : {}),
    };
    session.emit({
      type: 'run:start',
      method: variant === 'skill-r1' ? `evolve:${mode}` : `evolve:${variant}`,
      seed: config.seed,
      config: config as unknown as JsonObject,
    });

    const s0 = new Map<string, Skill>();
    for (const task of [...tasks, ...heldOutTasks]) {
      const skill = useS0 ? initialSkill(task, bank) : undefined;
      if (skill) s0.set(task.id, skill);
    }
    const trackEpisodes = (list: readonly Task[]) =>
      (variant === 'no-skill' ? list.length : list.filter((t) => s0.has(t.id)).length) * M +
      generations * list.length * K * M +
      list.length * finalEpisodes;
    session.setTotal(trackEpisodes(tasks) + trackEpisodes(heldOutTasks));

    let state: EvolveState = {
      tasks: Object.fromEntries(tasks.map((t) => [t.id, { history: [] }])),
      generationMeans: [],
    };
    let start = 0;
    const checkpoint = session.latestCheckpoint();
    if (checkpoint) {
      state = checkpoint.state as unknown as EvolveState;
      start = checkpoint.completed;
      if (generator?.persistence) {
        generator.value = await session.restore(generator, checkpoint.components.generator);
      } else if (generator && mode === 'grpo' && generator.value.update) {
        // No saved state: rebuild the editor by replaying each finished generation's update in order.
        for (let g = 1; g < start; g++) {
          const record = session.readKeyed<{
            rows: { taskId: string; candidate: number; advantage: number }[];
          }>('advantages', `g${g}`);
          if (!record) continue;
          const candidates = record.rows.map((r) => {
            const stored = session.readKeyed<{ candidates: SkillCandidate[] }>(
              'candidates',
              `g${g}/${r.taskId}`,
            );
            const candidate = stored?.candidates[r.candidate];
            if (!candidate)
              throw new InvalidArgumentError(
                'run directory',
                `candidate ${r.candidate} of ${r.taskId} in generation ${g} is missing`,
              );
            return candidate;
          });
          await generator.value.update(
            candidates,
            record.rows.map((r) => r.advantage),
          );
        }
      }
      // Rollouts of generations the checkpoint covers count as done in the progress total.
      session.creditStored((t) => (t.generation ?? 0) < start);
    }

    const training: Track = {
      prefix: 'g',
      tasks,
      states: state.tasks,
      means: state.generationMeans,
      train: true,
    };
    for (let g = start; g <= generations; g++) {
      session.setPhase(g === 0 ? 'generation 0 (s0)' : `generation ${g}/${generations}`);
      if (g === 0) await runStart(training);
      else await runGeneration(g, training);
      await session.checkpoint(g + 1, state as unknown as JsonValue, { generator });
    }

    /** Generation 0: s0's rollouts (or the task model alone for `no-skill`), the baseline of A_inter(1). */
    async function runStart(track: Track): Promise<void> {
      const unit = `${track.prefix}0`;
      const plan = planRollouts({
        tasks: variant === 'no-skill' ? track.tasks : track.tasks.filter((t) => s0.has(t.id)),
        skills: (task) => s0.get(task.id),
        groupSize: M,
        seed: root.seedFor(unit),
      });
      const runs = await session.runEpisodes(plan, unit, { ...runCtx, generation: 0 });
      for (const task of track.tasks) {
        const mine = runs.filter((r) => r.taskId === task.id);
        const ts = track.states[task.id] as TaskState;
        const skill = s0.get(task.id);
        if (mine.length === 0) continue;
        const reward = mean(mine.map((r) => r.reward));
        ts.previousMean = reward;
        if (skill) {
          ts.current = skill;
          ts.history.push(recordFor(0, skill, reward, mine));
          if (track.train) {
            session.store.writeFile(
              `skills/0/${taskSlug(task.id)}/${skill.name}/SKILL.md`,
              formatSkill(skill),
            );
          }
        }
        if (track.train) {
          session.emit({
            type: 'generation',
            taskId: task.id,
            generation: 0,
            meanReward: reward,
            bestReward: reward,
            bestSkill: skill?.name ?? '',
          });
        }
      }
      // Without s0 (initialSkill: none) nothing ran: no mean, rather than a made-up 0.
      if (runs.length > 0) track.means[0] = mean(runs.map((r) => r.reward));
    }

    async function runGeneration(g: number, track: Track): Promise<void> {
      const gen = generator as ResolvedComponent<SkillGenerator>;
      const unit = `${track.prefix}${g}`;
      const proposals = new Map<string, SkillCandidate[]>();
      for (const task of track.tasks) {
        const key = `${unit}/${task.id}`;
        const stored = session.readKeyed<{ candidates: SkillCandidate[] }>('candidates', key);
        let candidates = stored?.candidates;
        if (!candidates) {
          const ts = track.states[task.id] as TaskState;
          candidates = await gen.value.propose(
            {
              task,
              generation: g,
              history: ts.history,
              seed: root.fork(unit).seedFor(task.id),
              ...(ts.current ? { currentSkill: ts.current } : {}),
              ...(options.signal ? { signal: options.signal } : {}),
            },
            K,
          );
          if (!Array.isArray(candidates) || candidates.length === 0) {
            // An editor may reject every reply (an LLM that ignored the format): the current skill stands.
            if (!ts.current) {
              throw new InvalidArgumentError(
                'evolve.generator',
                `${gen.source} proposed no valid candidate for ${task.id}`,
              );
            }
            candidates = [
              { skill: ts.current, text: formatSkill(ts.current), info: { fallback: 'no valid candidate' } },
            ];
          }
          for (const candidate of candidates) {
            const check = validateSkill(candidate.skill);
            if (!check.ok) {
              const problems = check.problems.map((p) => `[${p.rule}] ${p.field}: ${p.message}`).join('; ');
              throw new InvalidArgumentError(
                'evolve.generator',
                `${gen.source} proposed an invalid skill: ${problems}`,
              );
            }
          }
          // Stored before any rollout: a resumed generation evaluates the very same candidates.
          session.appendOnce('candidates', key, {
            taskId: task.id,
            generation: g,
            candidates: JSON.parse(JSON.stringify(candidates)),
          });
        }
        proposals.set(task.id, candidates);
      }
      const plan = planRollouts({
        tasks: track.tasks,
        skills: (task) => (proposals.get(task.id) as SkillCandidate[]).map((c) => c.skill),
        groupSize: M,
        seed: root.seedFor(unit),
      });
      const runs = await session.runEpisodes(plan, unit, { ...runCtx, generation: g });

      const flat: {
        task: Task;
        candidate: SkillCandidate;
        index: number;
        reward: number;
        runs: Trajectory[];
      }[] = [];
      for (const task of track.tasks) {
        (proposals.get(task.id) as SkillCandidate[]).forEach((candidate, index) => {
          const mine = runs.filter((r) => r.taskId === task.id && r.candidate === index);
          flat.push({ task, candidate, index, reward: mean(mine.map((r) => r.reward)), runs: mine });
        });
      }
      // The method's inputs travel in the batch, so any estimator (a package's too) receives them: the
      // previous generation's mean per instance and λ per sample. Vanilla GRPO has no inter-generation term.
      const previousMeans: Record<string, number> = {};
      if (variant !== 'vanilla-grpo') {
        for (const task of track.tasks) {
          const prev = (track.states[task.id] as TaskState).previousMean;
          if (prev !== undefined) previousMeans[task.id] = prev;
        }
      }
      const est = estimator.create();
      const result = est.estimate({
        scores: flat.map((f) => f.reward),
        groupIds: flat.map((f) => f.task.id),
        instanceIds: flat.map((f) => f.task.id),
        generations: flat.map(() => g),
        lambdas: flat.map(() => lambda),
        previousMeans,
      });
      const advantages = Array.from(result.advantages);
      session.appendOnce('advantages', unit, {
        unit,
        rows: flat.map((f, i) => ({
          taskId: f.task.id,
          candidate: f.index,
          reward: f.reward,
          advantage: advantages[i] ?? 0,
        })),
      });
      let trainMetrics: Record<string, number> = {};
      if (track.train && mode === 'grpo' && gen.value.update) {
        trainMetrics = await gen.value.update(
          flat.map((f) => f.candidate),
          advantages,
        );
      }
      for (const task of track.tasks) {
        const mine = flat.filter((f) => f.task.id === task.id);
        const ts = track.states[task.id] as TaskState;
        const chosen = carry(mine, unit, task.id);
        const genMean = mean(mine.map((m) => m.reward));
        const record = recordFor(
          g,
          chosen.candidate.skill,
          chosen.reward,
          mine.flatMap((m) => m.runs),
        );
        record.candidates = mine.map((m) => ({ skill: m.candidate.skill, reward: m.reward }));
        ts.history.push(record);
        ts.current = chosen.candidate.skill;
        const interBase = ts.previousMean;
        ts.previousMean = genMean;
        if (!track.train) continue;
        session.store.writeFile(
          `skills/${g}/${taskSlug(task.id)}/${chosen.candidate.skill.name}/SKILL.md`,
          formatSkill(chosen.candidate.skill),
        );
        session.emit({
          type: 'generation',
          taskId: task.id,
          generation: g,
          meanReward: genMean,
          bestReward: chosen.reward,
          bestSkill: chosen.candidate.skill.name,
          metrics: {
            candidates: mine.length,
            ...(interBase !== undefined ? { inter: genMean - interBase } : {}),
            ...prefixed('adv', result.metrics),
            ...prefixed('train', trainMetrics),
          },
        });
      }
      track.means[g] = mean(flat.map((f) => f.reward));
    }

    function carry<T extends { reward: number; index: number }>(items: T[], unit: string, taskId: string): T {
      if ((section.carry ?? 'best') === 'sample') {
        const rng = root.fork(`carry:${unit}:${taskId}`);
        const total = items.reduce((a, b) => a + Math.max(b.reward, 0), 0);
        if (total > 0) {
          let u = rng.float() * total;
          for (const item of items) {
            u -= Math.max(item.reward, 0);
            if (u < 0) return item;
          }
        }
        return rng.pick(items);
      }
      // Ties go to the earliest candidate, so the choice is a function of the rewards alone.
      return items.reduce((best, item) => (item.reward > best.reward ? item : best));
    }

    /** Fresh episodes under each task's carried skill: the best candidate's own reward is selection-biased. */
    async function finalEvaluation(track: Track, unit: string): Promise<Trajectory[]> {
      const plan = planRollouts({
        tasks: track.tasks,
        skills: (task) => (track.states[task.id] as TaskState).current,
        groupSize: finalEpisodes,
        seed: root.seedFor(unit),
      });
      return session.runEpisodes(plan, unit, { ...runCtx, generation: generations + 1 });
    }
    const successRate = (runs: readonly Trajectory[]) =>
      runs.length ? runs.filter((r) => r.verdict.passed).length / runs.length : 0;

    const metrics: Record<string, number> = {};
    if (finalEpisodes > 0) {
      // Not checkpointed: after a crash the last checkpoint re-plans these same episodes and reuses the
      // ones already on disk, by id.
      session.setPhase('final evaluation');
      const runs = await finalEvaluation(training, 'final');
      metrics.final_eval_reward = mean(runs.map((r) => r.reward));
      metrics.final_eval_success = successRate(runs);
      metrics.final_eval_episodes = runs.length;
    }
    if (heldOutTasks.length > 0) {
      // The editor is frozen now. Not checkpointed either: its candidates and rollouts are stored under
      // `h<g>` units, so a resumed run re-reads them instead of proposing or running them again.
      const heldOut: Track = {
        prefix: 'h',
        tasks: heldOutTasks,
        states: Object.fromEntries(heldOutTasks.map((t) => [t.id, { history: [] }])),
        means: [],
        train: false,
      };
      for (let g = 0; g <= generations; g++) {
        session.setPhase(g === 0 ? 'held-out generation 0 (s0)' : `held-out generation ${g}/${generations}`);
        if (g === 0) await runStart(heldOut);
        else await runGeneration(g, heldOut);
      }
      heldOut.means.forEach((m, g) => {
        if (m !== undefined && m !== null) metrics[`heldout_generation_${g}_mean`] = m;
      });
      if (finalEpisodes > 0) {
        session.setPhase('held-out final evaluation');
        const runs = await finalEvaluation(heldOut, 'hfinal');
        metrics.heldout_final_eval_reward = mean(runs.map((r) => r.reward));
        metrics.heldout_final_eval_success = successRate(runs);
        metrics.heldout_final_eval_episodes = runs.length;
      }
      metrics.heldout_tasks = heldOutTasks.length;
    }
    let finalSum = 0;
    for (const task of tasks) {
      const ts = state.tasks[task.id] as TaskState;
      const last = ts.history[ts.history.length - 1];
      finalSum += last?.reward ?? ts.previousMean ?? 0;
      if (ts.current) {
        session.store.writeFile(
          `skills/final/${taskSlug(task.id)}/${ts.current.name}/SKILL.md`,
          formatSkill(ts.current),
        );
      }
    }
    metrics.final_reward = finalSum / tasks.length;
    state.generationMeans.forEach((m, g) => {
      if (m !== undefined && m !== null) metrics[`generation_${g}_mean`] = m;
    });
    metrics.tasks = tasks.length;
    metrics.rollouts = session.store.count('rollouts');
    session.writeJson('summary.json', { method: 'evolve', variant, mode, metrics });
    return session.complete('evolve', metrics);
  } catch (error) {
    session.fail(error, options.signal);
    throw error;
  } finally {
    session.close();
  }
}

function prefixed(prefix: string, metrics: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(metrics)) if (Number.isFinite(v)) out[`${prefix}_${k}`] = v;
  return out;
}
