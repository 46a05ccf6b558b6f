import type { Skill } from '@skillrl/core';
import { HOUSEHOLD_FAMILIES, type HouseholdFamily } from '../families.js';

function skill(name: string, description: string, families: HouseholdFamily[], body: string): Skill {
  return { name, description, body, families, license: 'MIT' };
}

/**
 * The starting skill inventory, in SKILL0's layout: one file of `### GENERAL SKILLS ###` and one file per
 * task type with a `### TASK: <type> ###` section of numbered principles (Pick and Pick2 share a file, as in
 * SKILL0). Each is a valid Agent Skills SKILL.md through `formatSkill`.
 */
export function householdSkills(): Skill[] {
  return [
    skill(
      'household-general',
      'General principles for ALFWorld-style household tasks: valid commands, one object in hand, closed receptacles, systematic search. Use on every household task.',
      [...HOUSEHOLD_FAMILIES],
      `### GENERAL SKILLS ###
1. Only admissible commands change the world; anything else answers "Nothing happens." Re-read the admissible list instead of repeating a failed command.
2. Use the exact numbered names you were shown (apple 1, countertop 2), never a bare type.
3. You can hold one object at a time: take an object only with empty hands, and put down anything you do not need first.
4. Cabinets, drawers, the fridge, the microwave and safes start closed: open one before you can see inside, take from it or put into it.
5. Search systematically: visit each likely receptacle once, most likely first, and do not go back to one you already searched unless you changed it.
6. The episode ends after 50 steps: skip look, inventory and examine unless you are unsure of the state.
`,
    ),
    skill(
      'household-pick',
      'How to find objects and place them in a receptacle, one or two of them. Use for pick_and_place_simple and pick_two_obj_and_place tasks.',
      ['pick_and_place_simple', 'pick_two_obj_and_place'],
      `### TASK: pick ###
1. Go to the place where the object usually is (food on countertops and in the fridge, dishes in cabinets, small tools in drawers, small things on tables and shelves).
2. Open the receptacle if it is closed, then take the object from it.
3. Go to the target receptacle, open it if it is closed, and put the object in it with "move <object> to <receptacle>" (or "put <object> in/on <receptacle>").
4. For two objects, place the first, then search for a second object of the same type and put it in the same target receptacle.
5. An object already inside a target receptacle counts: when one is there, bring only the second.
`,
    ),
    skill(
      'household-look',
      'How to examine an object under a desk lamp. Use for look_at_obj_in_light tasks.',
      ['look_at_obj_in_light'],
      `### TASK: look ###
1. Find the object (desks, side tables, dressers, shelves, beds, drawers) and take it.
2. Find the desklamp: it stands on a desk, side table or dresser.
3. Go to the desklamp while holding the object, then "use desklamp N": the task is done when the lamp turns on with the object in hand.
4. Do not put the object down before using the lamp.
`,
    ),
    skill(
      'household-clean',
      'How to clean an object and place it. Use for pick_clean_then_place_in_recep tasks.',
      ['pick_clean_then_place_in_recep'],
      `### TASK: clean ###
1. Find the object and take it.
2. Go to the sinkbasin and "clean <object> with sinkbasin N" while holding it; you do not put it in the sink.
3. Go to the target receptacle, open it if it is closed, and put the clean object in it.
`,
    ),
    skill(
      'household-heat',
      'How to heat an object with the microwave and place it. Use for pick_heat_then_place_in_recep tasks.',
      ['pick_heat_then_place_in_recep'],
      `### TASK: heat ###
1. Find the object and take it.
2. Go to the microwave and "heat <object> with microwave N" while holding it; the microwave need not be opened.
3. Go to the target receptacle, open it if it is closed, and put the hot object in it.
4. Cooling a hot object makes it cold again: do not use the fridge on it.
`,
    ),
    skill(
      'household-cool',
      'How to cool an object with the fridge and place it. Use for pick_cool_then_place_in_recep tasks.',
      ['pick_cool_then_place_in_recep'],
      `### TASK: cool ###
1. Find the object and take it.
2. Go to the fridge and "cool <object> with fridge N" while holding it; the fridge need not be opened.
3. Go to the target receptacle, open it if it is closed, and put the cool object in it.
4. Heating a cool object makes it warm again: do not use the microwave on it.
`,
    ),
  ];
}
