import type {
  Agent,
  CurriculumController,
  JsonObject,
  JsonValue,
  PolicyTrainer,
  ResolvedComponent,
  RunConfig,
  Skill,
  ValidationResult,
} from '@skillrl/core';
import { formatSkill, InvalidArgumentError } from '@skillrl/core';
import type * as Curriculum from '@skillrl/curriculum';
import { type PlannedEpisode, planRollouts } from '@skillrl/rollout';
import { importBuiltin } from '../components/import-package.js';
import { resolveComponent, resolveEstimator } from '../components/resolve-component.js';
import { refuseOverriddenOptions } from '../config/check-estimator-overrides.js';
import { retirementWarnings } from '../config/check-retirement.js';
import { parseConfig } from '../config/load-config.js';
import { envVerdictSummary } from '../run/env-verdict-check.js';
import { openRun } from '../run/open-run.js';
import { prefixedMetrics } from '../run/prefixed-metrics.js';
import type { RunOptions, RunResult } from '../run/run-types.js';
import { loadTasks, releaseAgent, setupBasics, sourcesOf } from '../run/setup-run.js';
import { signalSummary } from '../run/signal-summary.js';
import { writeRunBank } from '../skills/write-run-bank.js';

export interface InternalizeOptions extends RunOptions {
  configPath?: string;
  resume?: boolean;
}

interface InternalizeState {
  curriculum: JsonValue;
  validations: ValidationResult[];
}

/** A curriculum's plan (plain data) as rollout's planner lays it out: one group per task, ρ·n with the skill. */
function planGroups(plan: Curriculum.GroupPlan): PlannedEpisode[] {
  return plan.groups.flatMap((group) =>
    planRollouts({
      tasks: [group.task],
      ...(group.skill ? { skills: group.skill } : {}),
      groupSize: plan.groupSize,
      pairing: { rho: group.rho },
      seed: plan.seed,
    }),
  );
}

/**
 * SKILLC (arXiv 2605.27899), wired: each step `@skillrl/curriculum` plans it (the tasks, each group's skill
 * and ρ_k, λ_k), rollout runs the groups (pairing fixed by the seed), the estimator scores them, the trainer
 * updates the policy, and every d steps a paired validation (planned and summarised by the curriculum
 * package) feeds the curriculum. Variants: `grpo` (no skills), `skill0`, `d2skill-mixed`; ablations of
 * SKILLC by config.
 */
export async function internalize(input: RunConfig, options: InternalizeOptions = {}): Promise<RunResult> {
  const config = parseConfig(input);
  if (config.method !== 'internalize') {
    throw new InvalidArgumentError(
      'method',
      `internalize() runs method "internalize", got "${config.method}"`,
    );
  }
  const configPath = options.configPath ?? `${process.cwd()}/skillrl.config`;
  const section = config.internalize ?? {};
  // SKILLC's step planning and the run's shape (steps, group size, validation cadence and their defaults)
  // live in @skillrl/curriculum, beside the curricula it reads.
  const plan = (await importBuiltin(
    '@skillrl/curriculum',
    'the curriculum',
    configPath,
  )) as unknown as typeof Curriculum;
  const run = plan.skillcRunSettings(section);
  const { variant, ablation, steps, groupSize } = run;
  const perStep = run.tasksPerStep;
  const d = run.validateEvery;
  const valEpisodes = run.validationEpisodes;

  const basics = await setupBasics(config, configPath);
  const adapter = basics.adapter.value;
  const families = [...adapter.families];
  const estimator = await resolveEstimator(config.estimator ?? run.estimator, configPath);
  // An option the step's batch fields replace (skillc's lambda, say) would do nothing: refused here.
  refuseOverriddenOptions(config, estimator.batchOverrides, plan.SKILLC_STEP_BATCH_FIELDS, options);
  const pool = await loadTasks(adapter, config.tasks, config.seed);
  const validationTasks = await loadTasks(
    adapter,
    section.validation ?? { split: config.tasks.split, limit: 8, seed: config.seed + 1 },
    config.seed + 1,
  );
  const testEpisodes = run.testEpisodes;
  const testTasks = section.test ? await loadTasks(adapter, section.test, config.seed + 2) : [];
  const inventory = !run.usesSkills || !adapter.skills ? [] : await adapter.skills();
  // What a with-skill prompt carries, per family: the general sections plus the family's own (SKILL0's
  // `_get_skill_context`), the same for every variant so the rows differ in the method alone.
  const contexts = plan.skillContexts(families, inventory);
  const skills = contexts.full;
  if (run.usesSkills) {
    for (const family of families) {
      if (!skills[family]) {
        options.onWarning?.(
          `internalize: ${basics.adapter.source} has no skill for family "${family}"; its rollouts all run without one`,
        );
      }
    }
  }
  // A validation too small to ever retire a type is said before the run, as `skillrl check` says it.
  for (const warning of await retirementWarnings(config, adapter)) options.onWarning?.(warning);

  let agent: ResolvedComponent<Agent> = basics.agent;
  const spec = section.trainer as NonNullable<typeof section.trainer>;
  const session = openRun(config, configPath, options, options.resume === true, {
    ...sourcesOf({ adapter: basics.adapter, agent, estimator }),
    trainer: trainerSource(spec),
  });
  try {
    const checkpoint = session.latestCheckpoint();
    // A trainer that can save its state (optimizer moments included) is restored with the policy from the
    // checkpoint. One that cannot is rebuilt exactly by replaying its updates: a fresh policy from the same
    // seed, then every finished step's batch (rollouts and advantages, both on disk) in order.
    const trainerFor = (policy: Agent) =>
      resolveComponent('trainer', spec, { ...basics.context('trainer'), agent: policy });
    let trainer: ResolvedComponent<PolicyTrainer> = await trainerFor(agent.value);
    if (checkpoint && trainer.persistence) {
      agent = { ...agent, value: await session.restore(agent, checkpoint.components.agent) };
      trainer = await trainerFor(agent.value);
      trainer.value = await session.restore(trainer, checkpoint.components.trainer);
    } else if (checkpoint) {
      await plan.replaySkillcUpdates({
        completed: checkpoint.completed,
        stepRecord: (t) => session.readKeyed<{ rows: unknown[] }>('advantages', `s${t}`),
        trajectory: (id) => session.storedTrajectory(id),
        update: (batch) => trainer.value.update(batch),
      });
    }
    // A trainer that does not update the policy (`external`) leaves the agent as it started: every
    // validation then measures the starting policy, and the curriculum's decisions on it are marked so.
    const frozen = trainer.value.updatesPolicy === false;
    const frozenMark = frozen ? { frozenPolicy: true } : {};
    const state: InternalizeState = checkpoint
      ? (checkpoint.state as unknown as InternalizeState)
      : { curriculum: null, validations: [] };
    // The variant's curriculum (its kind and fixed options are curriculum's), or the checkpoint's restored.
    const saved = checkpoint ? state.curriculum : undefined;
    const curriculum: CurriculumController =
      saved !== undefined
        ? plan.restoreCurriculum(saved as unknown as Curriculum.CurriculumJSON)
        : plan.createVariantCurriculum(
            {
              variant,
              ablation,
              families,
              totalSteps: steps,
              d,
              files: contexts.files,
              generalSkills: contexts.general,
            },
            section.curriculum ?? {},
          );
    const stepSkills = plan.createStepSkills(contexts, inventory, curriculum);
    const start = checkpoint ? checkpoint.completed : 0;
    const root = basics.root;
    const runCtx = {
      adapter,
      agent: agent.value,
      // Rollout workers elsewhere act with the policy as trained so far: its state travels with each unit.
      ...(agent.persistence ? { agentPersistence: agent.persistence } : {}),
      concurrency: config.concurrency ?? 8,
      ...(config.maxSteps ? { maxSteps: config.maxSteps } : {}),
    };
    session.emit({
      type: 'run:start',
      method: run.label,
      seed: config.seed,
      config: config as unknown as JsonObject,
    });
    // Plus the validation at step 0, before any update: Δ̄_first is the untrained policy's gap.
    const validations =
      1 +
      Array.from({ length: steps }, (_, i) => i + 1).filter((t) => plan.skillcValidationDue(t, d, steps))
        .length;
    session.setTotal(
      steps * perStep * groupSize +
        validations * validationTasks.length * 2 * valEpisodes +
        testTasks.length * 2 * testEpisodes,
    );
    if (start === 0) {
      for (const skill of uniqueSkills(skills))
        session.store.writeFile(`skills/0/${skill.name}/SKILL.md`, formatSkill(skill));
    } else {
      session.creditStored((t) => unitStep(t.id) <= start);
    }

    /** A paired validation (or the final test) under `unit`: planned and summarised by the curriculum package. */
    const pairedValidation = async (
      step: number,
      tasks: typeof validationTasks,
      skillFor: (family: string) => Skill | undefined,
      episodes: number,
      seed: number,
      unit: string,
    ): Promise<ValidationResult> => {
      const groups = plan.planPairedValidation({ tasks, skillFor, episodes, seed });
      const runs = await session.runEpisodes(planGroups(groups), unit, runCtx);
      if (unit === 'test') testOutcomes = outcomesByTask(runs);
      return plan.summariseValidation(step, runs);
    };
    // The held-out test's success per task and side: what pairs two runs' test results task by task.
    let testOutcomes: Record<string, { with: number | null; without: number | null }> | undefined;
    const validate = (t: number) =>
      pairedValidation(t, validationTasks, stepSkills.current, valEpisodes, root.seedFor(`v${t}`), `v${t}`);
    if (start === 0) {
      // Not checkpointed: no update has happened yet, so a resumed run re-plans the same episodes and reads
      // them back from disk by id.
      session.setPhase('validation at step 0');
      const validation = await validate(0);
      const next = curriculum.observe(validation);
      state.validations.push(validation);
      session.emit({ type: 'validation', step: 0, validation, curriculum: next, ...frozenMark });
    }

    for (let t = start + 1; t <= steps; t++) {
      session.setPhase(`step ${t}/${steps}`);
      // The method's step lives in @skillrl/curriculum; the session runs, stores and checkpoints it.
      const step = await plan.runSkillcStep(
        {
          step: t,
          pool,
          tasksPerStep: perStep,
          groupSize,
          curriculum,
          skillFor: stepSkills.training,
          pairing: run.pairedValidation,
          rng: root,
          totalSteps: steps,
          validateEvery: d,
          ...(section.dynamicSampling ? { dynamicSampling: section.dynamicSampling } : {}),
        },
        {
          // A refill batch of dynamic sampling is a unit of its own (`s7b1`): its own ids and account.
          runEpisodes: (stepPlan) =>
            session.runEpisodes(
              planGroups(stepPlan),
              stepPlan.batch ? `s${t}b${stepPlan.batch}` : `s${t}`,
              runCtx,
            ),
          // The fields filled there are curriculum's `SKILLC_STEP_BATCH_FIELDS`.
          estimate: (batch) => estimator.create().estimate(batch),
          // Errored rollouts are not among `runs` (the step leaves them out): every row is a trained one.
          onAdvantages: (runs, advantages, stepAdvantages) =>
            session.appendOnce('advantages', `s${t}`, {
              unit: `s${t}`,
              rows: runs.map((r, i) => {
                // Only a complete, finite set is stored: a reader treats anything else as damage.
                const perStep = stepAdvantages?.[i]?.every(Number.isFinite) ? stepAdvantages[i] : undefined;
                return {
                  trajectoryId: r.id,
                  advantage: advantages[i] ?? 0,
                  ...(perStep ? { stepAdvantages: [...perStep] } : {}),
                };
              }),
            }),
          update: (batch) => trainer.value.update(batch),
          validate: (v) => {
            session.setPhase(`validation at step ${v}`);
            return validate(v);
          },
        },
      );
      session.emit({
        type: 'step',
        step: t,
        metrics: {
          ...step.metrics,
          ...prefixedMetrics('adv', step.estimatorMetrics),
          ...prefixedMetrics('train', step.trainMetrics),
        },
        ...(step.signal.void ? { void: step.signal.void } : {}),
      });
      // The no-signal guard, before the step is checkpointed: a stop here leaves it to run again on resume.
      session.judgeSignal(`s${t}`, step.signal.void);
      if (step.validation) {
        state.validations.push(step.validation.result);
        session.emit({
          type: 'validation',
          step: t,
          validation: step.validation.result,
          curriculum: step.validation.curriculum,
          ...frozenMark,
        });
      }
      state.curriculum = curriculum.toJSON();
      await session.checkpoint(t, state as unknown as JsonValue, {
        agent,
        trainer,
      });
    }

    let test: ValidationResult | undefined;
    if (testTasks.length > 0) {
      // Not checkpointed: a resume re-plans the same episodes and reuses those already on disk, by id.
      session.setPhase('test');
      test = await pairedValidation(
        steps,
        testTasks,
        (family) => skills[family],
        testEpisodes,
        root.seedFor('test'),
        'test',
      );
    }
    const last = state.validations[state.validations.length - 1];
    const account = session.rolloutAccount();
    // Each planned episode once (a rollout run again on resume is not a second one), and how many ended in
    // an error or were run again.
    const metrics: Record<string, number> = {
      steps,
      rollouts: account.rollouts,
      rollouts_errored: account.errored,
      rollouts_rerun: account.rerun,
    };
    // In the metrics too, so run:end, the CLI's result and `--json` carry it.
    if (frozen) metrics.policy_frozen = 1;
    // What the updates had to learn from, over the whole run (resumed parts included).
    const signal = session.signalAccount();
    metrics.signal_void_units = signal.voidUnits ?? 0;
    metrics.signal_zero_updates = signal.zeroUpdates ?? 0;
    metrics.rollouts_left_out = signal.rollouts_errored ?? 0;
    // The test's and the last validation's success with and without the skills (curriculum's).
    Object.assign(metrics, plan.skillcSummaryMetrics({ test, lastValidation: last }));
    const gapByStep = state.validations.map(plan.validationGap);
    const finalState = curriculum.state();
    metrics.final_active = finalState.active.length;
    for (const family of finalState.active) {
      const skill = skills[family];
      if (skill) session.store.writeFile(`skills/final/${skill.name}/SKILL.md`, formatSkill(skill));
    }
    session.writeSummary({
      method: 'internalize',
      variant,
      ablation,
      metrics,
      ...(testOutcomes ? { testOutcomes } : {}),
      curriculum: finalState,
      signal: signalSummary(signal),
      // The training dynamics SKILLC claims: the with/without gap at each paired validation (step 0 first).
      gapByStep: gapByStep as unknown as JsonValue,
      ...(test ? { test: test as unknown as JsonObject } : {}),
      ...envVerdictSummary(session, options.onWarning),
      ...(frozen
        ? {
            frozenPolicy: true,
            policyUpdate: `none: the trainer (${trainerSource(spec)}) reports updatesPolicy: false; every validation, λ/ρ and retirement above was decided against the starting policy. Train elsewhere from \`skillrl export\`.`,
          }
        : {}),
    });
    // The skill bank: every version with its parent, reward and utility (the report shows it).
    writeRunBank(session);
    return session.complete('internalize', metrics);
  } catch (error) {
    session.fail(error, options.signal);
    throw error;
  } finally {
    session.close();
    await releaseAgent(basics.agent.value);
  }
}

function trainerSource(spec: NonNullable<NonNullable<RunConfig['internalize']>['trainer']>): string {
  return typeof spec === 'string'
    ? `registry:${spec}`
    : `${spec.package ? `package:${spec.package}` : `registry:${spec.name}`}`;
}

function uniqueSkills(skills: Record<string, Skill>): Skill[] {
  const seen = new Map<string, Skill>();
  for (const s of Object.values(skills)) seen.set(s.name, s);
  return [...seen.values()];
}

/**
 * Success rate per task id and side (with the skill, without), null for a side that ran no episode: the
 * held-out test's outcomes as summary.json keeps them, so runs on the same test tasks can be paired by task.
 */
function outcomesByTask(
  runs: readonly { taskId: string; condition?: number; verdict: { passed: boolean } }[],
): Record<string, { with: number | null; without: number | null }> {
  const acc = new Map<string, [number, number, number, number]>();
  for (const t of runs) {
    const a = acc.get(t.taskId) ?? [0, 0, 0, 0];
    const side = t.condition === 1 ? 0 : 2;
    a[side] += t.verdict.passed ? 1 : 0;
    a[side + 1]! += 1;
    acc.set(t.taskId, a);
  }
  const out: Record<string, { with: number | null; without: number | null }> = {};
  for (const id of [...acc.keys()].sort()) {
    const [w, wn, o, on] = acc.get(id)!;
    out[id] = { with: wn ? w / wn : null, without: on ? o / on : null };
  }
  return out;
}

/** The training step a rollout id belongs to (`s7/...` and a refill's `s7b1/...` → 7, validation `v10/...` → 10). */
function unitStep(id: string): number {
  const m = /^[sv](\d+)(?:b\d+)?\//.exec(id);
  return m ? Number(m[1]) : Number.POSITIVE_INFINITY;
}
