import type { Skill } from '@skillrl/core';
import { assertValidSkill, SKILL_NAME_MAX } from '@skillrl/core';

const SUFFIX = '-steps';

/** `pick_heat_then_place_in_recep` → `pick-heat-then-place-in-recep-steps` (a valid Agent Skills name). */
export function stepSkillName(family: string): string {
  const slug =
    family
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, SKILL_NAME_MAX - SUFFIX.length)
      .replace(/-+$/, '') || 'task';
  return `${slug}${SUFFIX}`;
}

function sentence(phrase: string): string {
  const text = phrase.trim();
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * Renders an ordered step list as a skill: a heading naming the family and one numbered line per step.
 * Name and description come from the family; `families` is `[family]`. Throws `SkillFormatError` only for
 * input no vocabulary check would let through.
 */
export function renderStepSkill(family: string, steps: readonly string[]): Skill {
  const lines = steps.map((s, i) => `${i + 1}. ${sentence(s)}`);
  const count = `${steps.length} step${steps.length === 1 ? '' : 's'}`;
  const skill: Skill = {
    name: stepSkillName(family),
    description: `An ordered procedure (${count}) for ${family} tasks. Use it on ${family} tasks: follow the steps in order.`,
    body: `# Procedure for ${family}\n\n${lines.join('\n')}\n`,
    families: [family],
  };
  assertValidSkill(skill);
  return skill;
}

/** The numbered lines of a skill body (`1. …`, `2) …`), in order, without their numbers. */
export function readNumberedSteps(body: string): string[] {
  const out: string[] = [];
  for (const line of body.split(/\r?\n/)) {
    const m = /^\s*\d+[.)]\s+(.*\S)\s*$/.exec(line);
    if (m?.[1] !== undefined) out.push(m[1]);
  }
  return out;
}
