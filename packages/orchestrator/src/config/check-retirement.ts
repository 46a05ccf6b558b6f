import type { RunConfig } from '@skillrl/core';
import { skillForFamily, type TaskAdapter } from '@skillrl/core';
import type * as Curriculum from '@skillrl/curriculum';
import { importBuiltin } from '../components/import-package.js';

/**
 * What SKILLC's paired validation can tell its curriculum, per skill type: a warning for each type whose
 * validation can never retire it (too few episodes a side, too few validations, or a τ no evidence the pool
 * gathers can reach), so a config that says "until the policy no longer needs them" and cannot deliver it
 * is flagged before a run. Nothing runs: the validation tasks are loaded, as the run loads them.
 */
export async function retirementWarnings(config: RunConfig, adapter: TaskAdapter): Promise<string[]> {
  if (config.method !== 'internalize') return [];
  const section = config.internalize ?? {};
  const mod = (await importBuiltin('@skillrl/curriculum', 'the curriculum')) as typeof Curriculum;
  const {
    variant,
    ablation,
    steps,
    validateEvery: d,
    validationEpisodes: episodes,
  } = mod.skillcRunSettings(section);
  if (variant !== 'skillc' || ablation === 'no-pruning') return [];
  // The curriculum observes the step-0 validation and every d-th step (not the extra one after the last).
  const validations = 1 + Math.floor(steps / d);
  const selection = section.validation ?? { split: config.tasks.split, limit: 8, seed: config.seed + 1 };
  let tasks: Awaited<ReturnType<TaskAdapter['load']>>;
  try {
    tasks = await adapter.load({
      split: selection.split,
      seed: selection.seed ?? config.seed + 1,
      ...(selection.limit !== undefined ? { limit: selection.limit } : {}),
    });
  } catch {
    // A split the adapter cannot load is reported by the run, with the adapter's own message.
    return [];
  }
  const bank = typeof adapter.skills === 'function' ? await adapter.skills() : [];
  const { options } = mod.skillcVariantOptions(variant, ablation);
  const curriculum = {
    families: [...adapter.families],
    d,
    ...options,
    ...(section.curriculum ?? {}),
  } as Curriculum.SkillcCurriculumOptions;
  const blocked: { family: string; perSide: number }[] = [];
  let reason = '';
  let earliest = Number.POSITIVE_INFINITY;
  for (const family of adapter.families) {
    if (!skillForFamily(bank, family)) continue;
    const perSide = tasks.filter((t) => t.family === family).length * episodes;
    const reach = mod.retirementReach(curriculum, perSide, validations);
    if (reach.canRetire) earliest = Math.min(earliest, reach.earliestValidation ?? earliest);
    else {
      blocked.push({ family, perSide });
      reason ||= reach.reason ?? '';
    }
  }
  if (blocked.length === 0) return [];
  const withSkill = adapter.families.filter((f) => skillForFamily(bank, f)).length;
  const sizes = new Set(blocked.map((b) => b.perSide));
  const which =
    blocked.length === withSkill && sizes.size === 1
      ? `no skill type can ever retire in this run (all ${withSkill}, ${blocked[0]!.perSide} validation episodes a side each)`
      : `${blocked.length} of ${withSkill} skill types can never retire in this run: ${blocked.map((b) => `${b.family} (${b.perSide} a side)`).join(', ')}`;
  return [
    `internalize.validation: ${which}; ${reason}. Retirement needs a confidence bound of the pooled with − without gap below tau (@skillrl/curriculum README): give the validation more tasks per type (validation.limit) or episodes (validationEpisodes), or run more steps${Number.isFinite(earliest) ? ` (the other types can retire from validation ${earliest})` : ''}.`,
  ];
}
