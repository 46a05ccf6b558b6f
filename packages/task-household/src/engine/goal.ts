import type { HouseholdFamily } from '../families.js';

/** The state a transforming task asks for. */
export type ObjectState = 'hot' | 'cool' | 'clean';

/**
 * A task goal in the shape of ALFWorld's six PDDL goal templates: an object of `objectKind` (in state
 * `state`, `count` of them) inside a receptacle of `receptacleKind`; or, for look tasks, the object held
 * at a toggled `lampKind`.
 */
export interface HouseholdGoal {
  family: HouseholdFamily;
  objectKind: string;
  /** Absent for look tasks. */
  receptacleKind?: string;
  /** Look tasks only. */
  lampKind?: string;
  state?: ObjectState;
  /** 2 for pick-two tasks, else 1. */
  count: 1 | 2;
}

/** The two phrasings of each task type (BENCHMARKS.md, from ALFWorld's goal templates). */
export function describeGoal(goal: HouseholdGoal, variant: 0 | 1): string {
  const o = goal.objectKind;
  const r = goal.receptacleKind ?? '';
  switch (goal.family) {
    case 'pick_and_place_simple':
      return variant === 0 ? `put a ${o} in ${r}` : `put some ${o} on ${r}`;
    case 'look_at_obj_in_light':
      return variant === 0
        ? `look at ${o} under the ${goal.lampKind}`
        : `examine the ${o} with the ${goal.lampKind}`;
    case 'pick_clean_then_place_in_recep':
      return variant === 0 ? `put a clean ${o} in ${r}` : `clean some ${o} and put it in ${r}`;
    case 'pick_heat_then_place_in_recep':
      return variant === 0 ? `put a hot ${o} in ${r}` : `heat some ${o} and put it in ${r}`;
    case 'pick_cool_then_place_in_recep':
      return variant === 0 ? `put a cool ${o} in ${r}` : `cool some ${o} and put it in ${r}`;
    case 'pick_two_obj_and_place':
      return variant === 0 ? `put two ${o} in ${r}` : `find two ${o} and put them in ${r}`;
  }
}

/** The state each family requires of the placed object. */
export function familyState(family: HouseholdFamily): ObjectState | undefined {
  if (family === 'pick_clean_then_place_in_recep') return 'clean';
  if (family === 'pick_heat_then_place_in_recep') return 'hot';
  if (family === 'pick_cool_then_place_in_recep') return 'cool';
  return undefined;
}
