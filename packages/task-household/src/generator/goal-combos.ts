import { familyState } from '../engine/goal.js';
import { HOUSEHOLD_FAMILIES, type HouseholdFamily } from '../families.js';
import { OBJECT_KINDS, type ObjectKind } from '../vocabulary/object-types.js';
import { APPLIANCES, LAMP_HOSTS } from '../vocabulary/receptacle-types.js';
import { ROOMS, type RoomKind } from '../vocabulary/rooms.js';

/** One goal a generated game can have: a family, a room, an object type and a target (or lamp). */
export interface GoalCombo {
  family: HouseholdFamily;
  room: RoomKind;
  objectKind: ObjectKind;
  /** Target receptacle type; `desklamp` for look tasks. */
  target: string;
}

/** The appliance a family needs, if any. */
export function familyAppliance(family: HouseholdFamily): string | undefined {
  const state = familyState(family);
  return state ? APPLIANCES[state === 'hot' ? 'heat' : state] : undefined;
}

function affords(kind: ObjectKind, family: HouseholdFamily): boolean {
  const state = familyState(family);
  if (state === 'hot') return kind.heatable;
  if (state === 'cool') return kind.coolable;
  if (state === 'clean') return kind.cleanable;
  if (family === 'look_at_obj_in_light') return kind.lookable;
  return true;
}

/** FNV-1a: a stable string hash, so the held-out set never moves between versions of Node. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Whether an (family, object type, target) combination is held out for `valid_unseen`: about one in four,
 * fixed by a hash of the names, so train and valid_seen never see it as a goal.
 */
export function isHeldOut(family: HouseholdFamily, objectKind: string, target: string): boolean {
  return fnv1a(`${family}|${objectKind}|${target}`) % 4 === 0;
}

function buildCombos(): GoalCombo[] {
  const combos: GoalCombo[] = [];
  for (const room of ROOMS) {
    const kinds = Object.keys(room.receptacles);
    const lampHosts = kinds.filter((k) => LAMP_HOSTS.includes(k));
    for (const family of room.families) {
      if (family === 'look_at_obj_in_light' && lampHosts.length === 0) continue;
      const appliance = familyAppliance(family);
      if (appliance && !kinds.includes(appliance)) continue;
      for (const name of room.objects) {
        const kind = OBJECT_KINDS.find((k) => k.name === name);
        if (!kind || !affords(kind, family)) continue;
        const starts = kinds.filter((k) => kind.places.includes(k));
        if (family === 'look_at_obj_in_light') {
          if (starts.length > 0) combos.push({ family, room, objectKind: kind, target: 'desklamp' });
          continue;
        }
        for (const target of starts) {
          if (target === appliance) continue;
          // The object must be able to start somewhere other than the target.
          if (!starts.some((s) => s !== target)) continue;
          combos.push({ family, room, objectKind: kind, target });
        }
      }
    }
  }
  return combos;
}

let cache: { seen: Map<HouseholdFamily, GoalCombo[]>; unseen: Map<HouseholdFamily, GoalCombo[]> } | undefined;

/** Goal combinations per family: `seen` (train, valid_seen) and `unseen` (valid_unseen only). */
export function goalCombos(): {
  seen: Map<HouseholdFamily, GoalCombo[]>;
  unseen: Map<HouseholdFamily, GoalCombo[]>;
} {
  if (cache) return cache;
  const seen = new Map<HouseholdFamily, GoalCombo[]>(HOUSEHOLD_FAMILIES.map((f) => [f, []]));
  const unseen = new Map<HouseholdFamily, GoalCombo[]>(HOUSEHOLD_FAMILIES.map((f) => [f, []]));
  for (const c of buildCombos()) {
    const pool = isHeldOut(c.family, c.objectKind.name, c.target) ? unseen : seen;
    pool.get(c.family)?.push(c);
  }
  cache = { seen, unseen };
  return cache;
}
