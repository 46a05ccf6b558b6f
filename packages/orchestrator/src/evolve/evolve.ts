import { dirname, resolve as resolvePath } from 'node:path';
import type {
  JsonObject,
  JsonValue,
  ResolvedComponent,
  RunConfig,
  Skill,
  SkillCandidate,
  SkillGenerator,
  Task,
  Trajectory,
} from '@skillrl/core';
import { formatSkill, InvalidArgumentError, readSkillFolder, skillForFamily, taskSlug } from '@skillrl/core';
import { candidateFile } from '@skillrl/export';
import { planRollouts } from '@skillrl/rollout';
import type * as Generation from '@skillrl/skill-generator/generation';
import type {
  SkillR1AdvantageRow,
  SkillR1GenerationResult,
  SkillR1Proposal,
  SkillR1ProposalAttempt,
  SkillR1ProposalStats,
  SkillR1State,
} from '@skillrl/skill-generator/generation';
import { importBuiltin } from '../components/import-package.js';
import { resolveComponent, resolveEstimator } from '../components/resolve-component.js';
import { refuseOverriddenOptions } from '../config/check-estimator-overrides.js';
import { parseConfig } from '../config/load-config.js';
import { envVerdictSummary } from '../run/env-verdict-check.js';
import { openRun } from '../run/open-run.js';
import { prefixedMetrics } from '../run/prefixed-metrics.js';
import type { RunOptions, RunResult } from '../run/run-types.js';
import { loadTasks, releaseAgent, setupBasics, sourcesOf } from '../run/setup-run.js';
import { signalSummary } from '../run/signal-summary.js';
import { writeRunBank } from '../skills/write-run-bank.js';

export interface EvolveOptions extends RunOptions {
  /** The config file's path: packages resolve from its directory (default: a file in the working directory). */
  configPath?: string;
  /** Continue the run in `runDir` from its latest checkpoint. */
  resume?: boolean;
}

/**
 * One set of task instances going through the loop: the training tasks (prefix `g`, the editor learns in
 * `grpo` mode) or the held-out tasks (prefix `h`, the editor frozen). Units, stored candidates and
 * rollout ids carry the prefix, so the two never mix on disk.
 */
interface Track {
  prefix: 'g' | 'h';
  tasks: Task[];
  state: SkillR1State;
  train: boolean;
}

/** A task's record in candidates.jsonl: its candidates, the editor calls they took, the fallback if any. */
interface CandidatesRecord {
  taskId: string;
  generation: number;
  candidates: SkillCandidate[];
  attempts?: SkillR1ProposalAttempt[];
  fallback?: SkillR1Proposal['fallback'];
}

/** `12/32 proposals` with what went wrong so far, for the progress line. */
function proposalNote(stats: Pick<SkillR1ProposalStats, 'rejectedProposals' | 'fallbacks' | 'failedCalls'>) {
  const parts = [
    stats.rejectedProposals ? `${stats.rejectedProposals} rejected` : '',
    stats.failedCalls ? `${stats.failedCalls} failed calls` : '',
    stats.fallbacks ? `${stats.fallbacks} fallback${stats.fallbacks === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/**
 * Skill-R1 (arXiv 2605.09359), wired: the config's parts are resolved, then generation 0 (the starting
 * skill s0) and generations 1..G run through `runSkillR1Generation` of `@skillrl/skill-generator`, which
 * owns the method step; this loop persists what each generation returns (candidates before its rollouts,
 * the advantages, the carried skills, events) and checkpoints after it.
 */
export async function evolve(input: RunConfig, options: EvolveOptions = {}): Promise<RunResult> {
  const config = parseConfig(input);
  if (config.method !== 'evolve') {
    throw new InvalidArgumentError('method', `evolve() runs method "evolve", got "${config.method}"`);
  }
  const configPath = options.configPath ?? `${process.cwd()}/skillrl.config`;
  const section = config.evolve ?? {};
  // The method step and the run's shape (G, K, M, λ and their defaults) live in @skillrl/skill-generator,
  // loaded on use like every built-in part.
  const method = (await importBuiltin(
    '@skillrl/skill-generator/generation',
    "Skill-R1's generation step",
    configPath,
  )) as unknown as typeof Generation;
  const {
    variant,
    generations,
    candidates: K,
    episodes: M,
    lambda,
    interGeneration,
    mode,
    finalEpisodes,
    finalPaired,
    initialSkill,
    useS0,
    proposalRetries,
    edits,
    trainsEditor,
    label,
    estimator: defaultEstimator,
  } = method.skillR1RunSettings(section);

  // Everything a config names is resolved before the first rollout, so a bad name fails fast.
  const basics = await setupBasics(config, configPath);
  const adapter = basics.adapter.value;
  let generator: ResolvedComponent<SkillGenerator> | undefined;
  if (edits) {
    generator = await resolveComponent(
      'generator',
      section.generator as NonNullable<typeof section.generator>,
      basics.context('generator'),
    );
    if (trainsEditor && typeof generator.value.update !== 'function') {
      throw new InvalidArgumentError(
        'evolve.mode',
        `"grpo" trains the editor, but ${generator.source} has no update(); use "inference"`,
      );
    }
  }
  const estimator = await resolveEstimator(config.estimator ?? defaultEstimator, configPath);
  // An option the generation's batch fields replace (skill-r1's lambda, say) would do nothing: refused here.
  refuseOverriddenOptions(config, estimator.batchOverrides, method.SKILL_R1_GENERATION_BATCH_FIELDS, options);
  const tasks = await loadTasks(adapter, config.tasks, config.seed);
  const heldOutTasks = section.heldOut ? await loadTasks(adapter, section.heldOut, config.seed + 3) : [];
  // s0's bank: the adapter's skills, or the user's own Agent Skills folder (read from the config's folder).
  const ownSkills = useS0 && typeof initialSkill === 'object';
  const bank = !useS0
    ? []
    : ownSkills
      ? readSkillFolder(resolvePath(dirname(configPath), initialSkill.path), 'evolve.initialSkill.path')
      : adapter.skills
        ? await adapter.skills()
        : [];

  const session = openRun(
    config,
    configPath,
    options,
    options.resume === true,
    sourcesOf({ adapter: basics.adapter, agent: basics.agent, generator, estimator }),
  );
  try {
    const root = basics.root;
    const runCtx = {
      adapter,
      agent: basics.agent.value,
      concurrency: config.concurrency ?? 8,
      ...(config.maxSteps ? { maxSteps: config.maxSteps } : {}),
    };
    session.emit({
      type: 'run:start',
      method: label,
      seed: config.seed,
      config: config as unknown as JsonObject,
    });

    // s0: the most specific skill of the task's family in the adapter's bank.
    const s0 = new Map<string, Skill>();
    for (const task of [...tasks, ...heldOutTasks]) {
      // A skill of the user's that lists no family is for every task.
      const skill = useS0
        ? (skillForFamily(bank, task.family) ??
          (ownSkills ? bank.find((b) => !b.families?.length) : undefined))
        : undefined;
      if (skill) s0.set(task.id, skill);
    }
    const trackEpisodes = (list: readonly Task[]) =>
      (edits ? list.filter((t) => s0.has(t.id)).length : list.length) * M +
      generations * list.length * K * M +
      list.length * finalEpisodes * (finalPaired ? 2 : 1);
    session.setTotal(trackEpisodes(tasks) + trackEpisodes(heldOutTasks));

    const training: Track = { prefix: 'g', tasks, state: method.createSkillR1State(tasks), train: true };
    let start = 0;
    const checkpoint = session.latestCheckpoint();
    if (checkpoint) {
      training.state = checkpoint.state as unknown as SkillR1State;
      start = checkpoint.completed;
      if (generator?.persistence) {
        generator.value = await session.restore(generator, checkpoint.components.generator);
      } else if (generator && trainsEditor && generator.value.update) {
        // No saved state: rebuild the editor by replaying each finished generation's update (skill-generator).
        await method.replaySkillR1Updates({
          completed: start,
          taskIds: training.tasks.map((t) => t.id),
          readAdvantages: (g) =>
            session.readKeyed<{ rows: SkillR1AdvantageRow[] }>('advantages', `g${g}`)?.rows,
          readProposal: (g, taskId) => session.readKeyed<CandidatesRecord>('candidates', `g${g}/${taskId}`),
          editor: { update: generator.value.update.bind(generator.value) },
        });
      }
      // Rollouts of generations the checkpoint covers count as done in the progress total.
      session.creditStored((t) => (t.generation ?? 0) < start);
    }

    // Proposals for a generation's tasks run concurrently, within the run's concurrency and the editor's own
    // limit (an LLM editor's `maxConcurrency`).
    const editorLimit = generator?.value.maxConcurrency;
    const proposalConcurrency = Math.max(
      1,
      Math.min(
        runCtx.concurrency,
        typeof editorLimit === 'number' && editorLimit >= 1 ? editorLimit : Infinity,
      ),
    );

    /** One generation of a track through the method step; what it returns is persisted here. */
    async function runGeneration(g: number, track: Track, phase: string): Promise<void> {
      const unit = `${track.prefix}${g}`;
      const gen = generator;
      session.setPhase(phase);
      const result: SkillR1GenerationResult = await method.runSkillR1Generation(
        {
          generation: g,
          tasks: track.tasks,
          state: track.state,
          candidates: K,
          episodes: M,
          lambda,
          interGeneration,
          carry: section.carry ?? 'best',
          train: track.train && trainsEditor,
          initialSkill: (task) => s0.get(task.id),
          skillFreeStart: !edits,
          rng: root,
          unit,
          ...(gen ? { editor: { name: gen.source, argument: 'evolve.generator' } } : {}),
          proposalRetries,
          proposalConcurrency,
          // The run's signal: the caller's (Ctrl-C, SIGTERM), or the error budget's stop.
          signal: session.signal,
        },
        // Editor calls count against the error budget (`health`), as rollouts do.
        session.withEditorBudget<Parameters<typeof method.runSkillR1Generation>[1]>({
          propose: (context, n) => (gen as ResolvedComponent<SkillGenerator>).value.propose(context, n),
          ...(gen?.value.update
            ? {
                update: (candidates, advantages, context) =>
                  gen.value.update!(candidates, advantages, context),
              }
            : {}),
          runEpisodes: ({ generation, ...request }) =>
            session.runEpisodes(planRollouts(request), unit, { ...runCtx, generation }),
          estimate: (batch) => estimator.create().estimate(batch),
          // candidates.jsonl: per task, what the generation evaluates (stored before its rollouts), the
          // editor calls it took with every rejected proposal and its reason, and the fallback if any.
          storedProposal: (taskId) => {
            const r = session.readKeyed<CandidatesRecord>('candidates', `${unit}/${taskId}`);
            if (!r) return undefined;
            // Records written before attempts were stored mark a fallback on the candidate alone.
            const fallback = r.fallback ?? (r.candidates[0]?.info?.fallback ? 'current-skill' : undefined);
            return {
              candidates: r.candidates,
              attempts: r.attempts ?? [],
              ...(fallback ? { fallback } : {}),
            };
          },
          onCandidates: (taskId, candidates, proposal) => {
            // Each of the editor's candidates as an Agent Skills folder (a fallback proposes nothing new),
            // before the record: a resumed generation that finds the record has its folders too.
            if (track.train && !proposal?.fallback) {
              candidates.forEach((c, k) => {
                session.store.writeFile(candidateFile(g, taskId, k, c.skill.name), formatSkill(c.skill));
              });
            }
            return session.appendOnce('candidates', `${unit}/${taskId}`, {
              taskId,
              generation: g,
              candidates: JSON.parse(JSON.stringify(candidates)),
              attempts: JSON.parse(JSON.stringify(proposal?.attempts ?? [])),
              ...(proposal?.fallback ? { fallback: proposal.fallback } : {}),
            });
          },
          // rejections.jsonl: each editor call that gave no valid candidate, stored before the retry, so a
          // resumed generation continues after it instead of sending it again.
          storedAttempts: (taskId) => {
            const out: SkillR1ProposalAttempt[] = [];
            for (;;) {
              const r = session.readKeyed<SkillR1ProposalAttempt>(
                'rejections',
                `${unit}/${taskId}/${out.length}`,
              );
              if (!r) return out;
              out.push(r);
            }
          },
          onAttempt: (taskId, attempt) =>
            session.appendOnce('rejections', `${unit}/${taskId}/${attempt.attempt}`, {
              unit,
              generation: g,
              taskId,
              ...(JSON.parse(JSON.stringify(attempt)) as JsonObject),
            }),
          onProposed: ({ done, total, stats }) =>
            session.setPhase(
              done < total
                ? `${phase}: proposals ${done}/${total}${proposalNote(stats)}`
                : `${phase}: rollouts${proposalNote(stats)}`,
            ),
        }),
      );
      track.state = result.state;
      // Tasks whose every rollout errored have no score this generation: said, and counted in the summary.
      for (const u of result.unscored ?? []) {
        options.onWarning?.(
          `${unit}: task ${u.taskId} has no score (all ${u.rolloutsErrored} of its rollouts ended in an error); it keeps its skill`,
        );
      }
      if (result.advantages) {
        session.appendOnce('advantages', unit, { unit, rows: result.advantages as unknown as JsonValue });
      }
      if (!track.train) return;
      for (const outcome of result.tasks) {
        if (outcome.skill) {
          session.store.writeFile(
            `skills/${g}/${taskSlug(outcome.taskId)}/${outcome.skill.name}/SKILL.md`,
            formatSkill(outcome.skill),
          );
        }
        session.emit({
          type: 'generation',
          taskId: outcome.taskId,
          generation: g,
          meanReward: outcome.meanReward,
          bestReward: outcome.bestReward,
          bestSkill: outcome.skill?.name ?? '',
          ...(g > 0
            ? {
                metrics: {
                  candidates: outcome.candidates ?? 0,
                  ...(outcome.inter !== undefined ? { inter: outcome.inter } : {}),
                  // What the editor cost and how it failed, per task (the report averages them: the share
                  // of tasks that fell back, rejected proposals per task).
                  editor_calls: outcome.proposals?.calls ?? 0,
                  editor_failed_calls: outcome.proposals?.failedCalls ?? 0,
                  rejected_proposals: outcome.proposals?.rejected ?? 0,
                  fallback: outcome.fallback ? 1 : 0,
                  // Errored rollouts left out of the task's means, and candidates with no score at all.
                  rollouts_errored: outcome.rolloutsErrored,
                  unscored_candidates: outcome.unscoredCandidates ?? 0,
                  // What the task's part of the update had to learn from (summed over the run's summary).
                  ...(outcome.signal
                    ? {
                        signal_groups: 1,
                        signal_zero_variance_groups: outcome.signal.zeroVariance ? 1 : 0,
                        signal_candidates: outcome.signal.candidates,
                        signal_identical_candidates: outcome.signal.identicalCandidates,
                        signal_fallbacks: outcome.fallback ? 1 : 0,
                      }
                    : {}),
                  ...(result.signal?.zeroUpdate !== undefined
                    ? { signal_zero_update: result.signal.zeroUpdate ? 1 : 0 }
                    : {}),
                  ...prefixedMetrics('adv', result.estimatorMetrics),
                  ...prefixedMetrics('train', result.trainMetrics),
                },
                ...(result.signal?.void ? { void: result.signal.void } : {}),
              }
            : {}),
        });
      }
      // The no-signal guard, before the generation is checkpointed: a stop here runs it again on resume.
      if (g > 0 && result.signal) session.judgeSignal(unit, result.signal.void);
    }

    for (let g = start; g <= generations; g++) {
      await runGeneration(g, training, g === 0 ? 'generation 0 (s0)' : `generation ${g}/${generations}`);
      await session.checkpoint(g + 1, training.state as unknown as JsonValue, { generator });
    }

    // The final evaluation's plan and metrics are Skill-R1's (skill-generator); its episodes run here.
    async function finalEvaluation(track: Track, unit: string): Promise<Trajectory[]> {
      const plan = method.planSkillR1FinalEvaluation({
        tasks: track.tasks,
        skillOf: (task) => track.state.tasks[task.id]?.current,
        episodes: finalEpisodes,
        paired: finalPaired,
        seed: root.seedFor(unit),
      });
      return session.runEpisodes(plan, unit, { ...runCtx, generation: generations + 1 });
    }
    const finalMetrics = (runs: readonly Trajectory[], unit: string, prefix: string) =>
      Object.assign(metrics, method.skillR1FinalMetrics(runs, { paired: finalPaired, unit, prefix }));

    const metrics: Record<string, number> = {};
    if (finalEpisodes > 0) {
      // Not checkpointed: after a crash the last checkpoint re-plans these same episodes and reuses the
      // ones already on disk, by id.
      session.setPhase('final evaluation');
      finalMetrics(await finalEvaluation(training, 'final'), 'final', '');
    }
    if (heldOutTasks.length > 0) {
      // The editor is frozen now. Not checkpointed either: its candidates and rollouts are stored under
      // `h<g>` units, so a resumed run re-reads them instead of proposing or running them again.
      const heldOut: Track = {
        prefix: 'h',
        tasks: heldOutTasks,
        state: method.createSkillR1State(heldOutTasks),
        train: false,
      };
      for (let g = 0; g <= generations; g++) {
        await runGeneration(
          g,
          heldOut,
          g === 0 ? 'held-out generation 0 (s0)' : `held-out generation ${g}/${generations}`,
        );
      }
      Object.assign(metrics, method.skillR1GenerationMeans(heldOut.state, 'heldout_'));
      if (finalEpisodes > 0) {
        session.setPhase('held-out final evaluation');
        finalMetrics(await finalEvaluation(heldOut, 'hfinal'), 'hfinal', 'heldout_');
      }
      metrics.heldout_tasks = heldOutTasks.length;
    }
    for (const task of tasks) {
      const ts = training.state.tasks[task.id];
      if (ts?.current) {
        session.store.writeFile(
          `skills/final/${taskSlug(task.id)}/${ts.current.name}/SKILL.md`,
          formatSkill(ts.current),
        );
      }
    }
    // final_reward, each generation's mean, the task count (skill-generator's).
    Object.assign(
      metrics,
      method.skillR1SummaryMetrics(
        training.state,
        tasks.map((t) => t.id),
      ),
    );
    const account = session.rolloutAccount();
    // Each planned episode once (a rollout run again on resume is not a second one).
    metrics.rollouts = account.rollouts;
    metrics.rollouts_errored = account.errored;
    metrics.rollouts_rerun = account.rerun;
    // Per unit, the tasks whose editor gave no valid candidate and that fell back (summary.json).
    const fallbacksByUnit: Record<string, number> = {};
    if (generator) {
      // Counted from candidates.jsonl, so a resumed run reports its whole history.
      const records = session.store.read<CandidatesRecord & { key: string }>('candidates');
      for (const r of records) {
        if (!r.fallback) continue;
        const unit = r.key.split('/')[0] ?? r.key;
        fallbacksByUnit[unit] = (fallbacksByUnit[unit] ?? 0) + 1;
      }
      Object.assign(metrics, method.skillR1ProposalTotals(records.filter((r) => r.key.startsWith('g'))));
      if (heldOutTasks.length > 0) {
        for (const [k, v] of Object.entries(
          method.skillR1ProposalTotals(records.filter((r) => r.key.startsWith('h'))),
        )) {
          metrics[`heldout_${k}`] = v;
        }
      }
    }
    // What the editor's updates had to learn from, over the whole run (resumed parts included).
    const signal = session.signalAccount();
    metrics.signal_void_units = signal.voidUnits ?? 0;
    metrics.rollouts_left_out = signal.rollouts_errored ?? 0;
    session.writeSummary({
      method: 'evolve',
      variant,
      mode,
      metrics,
      signal: signalSummary(signal),
      fallbacksByUnit,
      ...envVerdictSummary(session, options.onWarning),
    });
    // The skill bank: every version with its parent, reward and utility (the report shows it).
    writeRunBank(session);
    return session.complete('evolve', metrics);
  } catch (error) {
    session.fail(error, options.signal);
    throw error;
  } finally {
    session.close();
    await releaseAgent(basics.agent.value);
  }
}
