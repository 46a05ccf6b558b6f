import type { HouseholdFamily } from '../families.js';

const FIND = [
  'go to the place where the object usually is',
  'open the closed receptacle',
  'look at what the receptacle holds',
  'take the object',
];
const PLACE = [
  'go to the target receptacle',
  'open the target receptacle if it is closed',
  'put the object in the target receptacle',
];

/**
 * Short procedure phrases per task type: the building blocks the trainable skill editor composes skills
 * from. Each is one step of the expert's plan, in words.
 */
export function stepVocabulary(): Record<HouseholdFamily, string[]> {
  return {
    pick_and_place_simple: [...FIND, ...PLACE],
    look_at_obj_in_light: [
      ...FIND,
      'go to the place where the desklamp is',
      'turn on the desklamp while holding the object',
    ],
    pick_clean_then_place_in_recep: [
      ...FIND,
      'go to the sinkbasin',
      'clean the object with the sinkbasin',
      ...PLACE,
    ],
    pick_heat_then_place_in_recep: [
      ...FIND,
      'go to the microwave',
      'heat the object with the microwave',
      ...PLACE,
    ],
    pick_cool_then_place_in_recep: [...FIND, 'go to the fridge', 'cool the object with the fridge', ...PLACE],
    pick_two_obj_and_place: [
      ...FIND,
      ...PLACE,
      'go back for the second object',
      'take the second object',
      'put the second object in the same target receptacle',
    ],
  };
}
