/**
 * Object types with ALFRED's affordances and the receptacle types that can contain them (the PDDL
 * `canContain` facts of real game files, trimmed to the receptacles our rooms build).
 */
export interface ObjectKind {
  name: string;
  heatable: boolean;
  coolable: boolean;
  cleanable: boolean;
  /** Can be the object of a look task (held under a desk lamp). */
  lookable: boolean;
  places: readonly string[];
}

const KITCHEN_SURFACES = ['countertop', 'diningtable'];
const SMALL_TOOLS = [...KITCHEN_SURFACES, 'drawer', 'sinkbasin'];
const FOOD = [...KITCHEN_SURFACES, 'fridge', 'microwave', 'garbagecan', 'sinkbasin'];
const DISHES = [...KITCHEN_SURFACES, 'cabinet', 'fridge', 'microwave', 'sinkbasin', 'shelf'];
const LIVING_SURFACES = ['sofa', 'armchair', 'coffeetable', 'sidetable', 'tvstand', 'diningtable', 'dresser'];
const BED_SURFACES = ['bed', 'desk', 'dresser', 'sidetable', 'shelf', 'armchair'];
const SMALL_THINGS = [...LIVING_SURFACES, ...BED_SURFACES, 'drawer', 'cabinet', 'shelf', 'safe'];
const BATH_SHELVES = ['countertop', 'cabinet', 'shelf', 'drawer', 'toilet'];

function kind(name: string, flags: string, places: readonly string[]): ObjectKind {
  return {
    name,
    heatable: flags.includes('H'),
    coolable: flags.includes('C'),
    cleanable: flags.includes('W'),
    lookable: flags.includes('L'),
    places: [...new Set(places)],
  };
}

/** Flags: H heatable, C coolable, W cleanable (washable), L lookable. */
export const OBJECT_KINDS: readonly ObjectKind[] = [
  kind('alarmclock', 'L', BED_SURFACES),
  kind('apple', 'HCW', FOOD),
  kind('baseballbat', '', ['bed', 'armchair', 'desk']),
  kind('basketball', '', ['bed', 'armchair', 'sidetable']),
  kind('book', 'L', [...SMALL_THINGS]),
  kind('bowl', 'CWL', [...DISHES, 'desk', 'sidetable', 'dresser']),
  kind('box', '', [...LIVING_SURFACES, 'shelf', 'cabinet']),
  kind('bread', 'HC', [...KITCHEN_SURFACES, 'fridge', 'microwave', 'garbagecan', 'cabinet']),
  kind('butterknife', 'W', SMALL_TOOLS),
  kind('candle', '', [...BATH_SHELVES, 'bathtubbasin']),
  kind('cd', 'L', [...BED_SURFACES, 'drawer', 'safe', 'garbagecan']),
  kind('cellphone', 'L', SMALL_THINGS),
  kind('cloth', 'W', [...BATH_SHELVES, 'sinkbasin', 'bathtubbasin', 'garbagecan']),
  kind('creditcard', 'L', SMALL_THINGS),
  kind('cup', 'HCW', DISHES),
  kind('dishsponge', 'W', [...KITCHEN_SURFACES, 'cabinet', 'drawer', 'sinkbasin', 'garbagecan']),
  kind('egg', 'HCW', FOOD),
  kind('fork', 'W', SMALL_TOOLS),
  kind('handtowel', '', ['handtowelholder', 'countertop']),
  kind('kettle', 'W', [...KITCHEN_SURFACES, 'cabinet', 'stoveburner', 'sinkbasin']),
  kind('keychain', 'L', SMALL_THINGS),
  kind('knife', 'W', SMALL_TOOLS),
  kind('ladle', 'W', [...SMALL_TOOLS, 'cabinet']),
  kind('laptop', 'L', ['sofa', 'armchair', 'coffeetable', 'sidetable', 'tvstand', 'bed', 'desk', 'dresser']),
  kind('lettuce', 'CW', [...KITCHEN_SURFACES, 'fridge', 'garbagecan', 'sinkbasin']),
  kind('mug', 'HCWL', [...DISHES, 'coffeemachine', 'desk', 'sidetable', 'dresser']),
  kind('newspaper', 'L', [...LIVING_SURFACES, 'shelf', 'garbagecan']),
  kind('pan', 'CW', [...KITCHEN_SURFACES, 'cabinet', 'fridge', 'sinkbasin', 'stoveburner']),
  kind('pen', 'L', [...BED_SURFACES, 'drawer', 'garbagecan']),
  kind('pencil', 'L', [...BED_SURFACES, 'drawer', 'garbagecan']),
  kind('peppershaker', '', [...KITCHEN_SURFACES, 'cabinet', 'drawer', 'shelf']),
  kind('pillow', 'L', ['sofa', 'armchair', 'bed']),
  kind('plate', 'HCW', DISHES),
  kind('plunger', '', ['toilet', 'cabinet']),
  kind('pot', 'CW', [...KITCHEN_SURFACES, 'cabinet', 'fridge', 'sinkbasin', 'stoveburner', 'shelf']),
  kind('potato', 'HCW', FOOD),
  kind('remotecontrol', 'L', [...LIVING_SURFACES, 'drawer', 'cabinet', 'garbagecan']),
  kind('saltshaker', '', [...KITCHEN_SURFACES, 'cabinet', 'drawer', 'shelf']),
  kind('scrubbrush', '', ['toilet', 'cabinet', 'countertop', 'garbagecan']),
  kind('soapbar', 'W', [...BATH_SHELVES, 'sinkbasin', 'bathtubbasin', 'garbagecan']),
  kind('soapbottle', '', [...KITCHEN_SURFACES, ...BATH_SHELVES, 'cabinet', 'garbagecan']),
  kind('spatula', 'W', [...SMALL_TOOLS]),
  kind('spoon', 'W', SMALL_TOOLS),
  kind('spraybottle', '', [...BATH_SHELVES, 'garbagecan']),
  kind('statue', 'L', [...LIVING_SURFACES, 'shelf', 'cabinet']),
  kind('tennisracket', '', ['bed', 'armchair', 'desk']),
  kind('tissuebox', '', [...LIVING_SURFACES, ...BATH_SHELVES, 'garbagecan']),
  kind('toiletpaper', '', ['toiletpaperhanger', 'toilet', 'cabinet', 'countertop', 'garbagecan']),
  kind('tomato', 'HCW', FOOD),
  kind('towel', '', ['towelholder', 'bathtubbasin']),
  kind('vase', 'L', [...LIVING_SURFACES, 'shelf', 'cabinet']),
  kind('watch', 'L', [...LIVING_SURFACES, 'drawer', 'safe']),
  kind('winebottle', 'C', [...KITCHEN_SURFACES, 'fridge', 'cabinet', 'garbagecan', 'shelf']),
];

const BY_NAME = new Map(OBJECT_KINDS.map((k) => [k.name, k]));

export function objectKind(name: string): ObjectKind | undefined {
  return BY_NAME.get(name);
}
