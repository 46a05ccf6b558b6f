/** ALFWorld's six task types, by the names its game files and papers use. */
export const HOUSEHOLD_FAMILIES = [
  'pick_and_place_simple',
  'look_at_obj_in_light',
  'pick_clean_then_place_in_recep',
  'pick_heat_then_place_in_recep',
  'pick_cool_then_place_in_recep',
  'pick_two_obj_and_place',
] as const;

export type HouseholdFamily = (typeof HOUSEHOLD_FAMILIES)[number];

/** The short labels papers report success under (SKILLC, SKILL0, ReAct tables). */
export const FAMILY_LABELS: Readonly<Record<HouseholdFamily, string>> = {
  pick_and_place_simple: 'Pick',
  look_at_obj_in_light: 'Look',
  pick_clean_then_place_in_recep: 'Clean',
  pick_heat_then_place_in_recep: 'Heat',
  pick_cool_then_place_in_recep: 'Cool',
  pick_two_obj_and_place: 'Pick2',
};

export function isHouseholdFamily(value: string): value is HouseholdFamily {
  return (HOUSEHOLD_FAMILIES as readonly string[]).includes(value);
}

/** The metric label of a family (`Heat` for `pick_heat_then_place_in_recep`). */
export function familyLabel(family: HouseholdFamily): string {
  return FAMILY_LABELS[family];
}
