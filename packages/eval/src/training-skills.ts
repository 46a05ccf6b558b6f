import type { Skill, TaskAdapter } from '@skillrl/core';
import { skillForFamily } from '@skillrl/core';
import { importBuiltin, type RunConfig } from '@skillrl/orchestrator';

/** The adapter's most specific skill per family: evolve's s0, and the with-skill side when nothing composes more. */
export async function defaultSkills(adapter: TaskAdapter): Promise<Record<string, Skill>> {
  const bank = adapter.skills ? await adapter.skills() : [];
  const out: Record<string, Skill> = {};
  for (const family of adapter.families) {
    const skill = skillForFamily(bank, family);
    if (skill) out[family] = skill;
  }
  return out;
}

/**
 * The with-skill condition's skill per family, built as training builds it, so `eval <config>` and
 * `eval <run-dir>` of the same config compare the same prompts: an internalize run's with-skill prompts carry
 * each family's full context (the general sections, then its own; curriculum's `skillContexts`, SKILL0's
 * `_get_skill_context`); evolve's s0 is the family's own skill, and internalize's `grpo` control trains
 * with none, so both get the adapter's most specific skill per family.
 */
export async function trainingSkills(
  adapter: TaskAdapter,
  config: RunConfig,
  configPath: string,
): Promise<Record<string, Skill>> {
  if (config.method !== 'internalize' || config.internalize?.variant === 'grpo')
    return defaultSkills(adapter);
  const inventory = adapter.skills ? await adapter.skills() : [];
  if (inventory.length === 0) return {};
  const { skillContexts } = (await importBuiltin('@skillrl/curriculum', 'the curriculum', configPath)) as {
    skillContexts: (families: readonly string[], skills: readonly Skill[]) => { full: Record<string, Skill> };
  };
  return skillContexts([...adapter.families], inventory).full;
}
