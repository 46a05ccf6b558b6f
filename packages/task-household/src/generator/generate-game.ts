import { createRng, InvalidArgumentError, type Rng, type Seed } from '@skillrl/core';
import { alfredGrammar } from '../engine/alfred-twl2.js';
import type { GameObject, GameReceptacle, HouseholdGame } from '../engine/game.js';
import { describeGoal, familyState, type HouseholdGoal } from '../engine/goal.js';
import { HOUSEHOLD_FAMILIES, type HouseholdFamily } from '../families.js';
import { OBJECT_KINDS, objectKind } from '../vocabulary/object-types.js';
import { isOpenableKind, LAMP_HOSTS } from '../vocabulary/receptacle-types.js';
import { familyAppliance, type GoalCombo, goalCombos } from './goal-combos.js';

/** The splits the generator makes. `train` and `valid_seen` share goals; `valid_unseen` holds the rest. */
export const HOUSEHOLD_SPLITS = ['train', 'valid_seen', 'valid_unseen'] as const;
export type HouseholdSplit = (typeof HOUSEHOLD_SPLITS)[number];

export function isHouseholdSplit(value: string): value is HouseholdSplit {
  return (HOUSEHOLD_SPLITS as readonly string[]).includes(value);
}

export interface GenerateGameOptions {
  split: HouseholdSplit;
  seed: Seed;
  /** Position in the split; the family cycles through the six types with it. */
  index: number;
  /** Force a family instead of `HOUSEHOLD_FAMILIES[index % 6]`. */
  family?: HouseholdFamily;
}

/** A generated game plus what made it (kept in `Task.metadata`). */
export interface GeneratedGame {
  game: HouseholdGame;
  room: string;
  family: HouseholdFamily;
}

const CAN_CONTAIN: ReadonlySet<string> = new Set(
  OBJECT_KINDS.flatMap((k) => k.places.map((p) => `${p}|${k.name}`)),
);

const LAMP: Omit<GameObject, 'name'> = {
  kind: 'desklamp',
  pickupable: false,
  heatable: false,
  coolable: false,
  cleanable: false,
  toggleable: true,
  sliceable: false,
  receptacleObject: false,
};

const RECEPTACLE_OBJECTS = new Set(['bowl', 'cup', 'mug', 'pan', 'plate', 'pot']);

/**
 * Generates one ALFWorld-like game, a pure function of (split, seed, index): a room of numbered
 * receptacles, the goal's objects away from their target, distractors, and closed containers.
 */
export function generateGame(options: GenerateGameOptions): GeneratedGame {
  const { split, seed, index } = options;
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new InvalidArgumentError('index', `expected an integer >= 0, got ${index}`);
  }
  if (!isHouseholdSplit(split)) {
    throw new InvalidArgumentError('split', `"${split}"; expected one of ${HOUSEHOLD_SPLITS.join(', ')}`);
  }
  const family = options.family ?? (HOUSEHOLD_FAMILIES[index % HOUSEHOLD_FAMILIES.length] as HouseholdFamily);
  const rng = createRng(seed).fork(split).fork(index);
  const pools = goalCombos();
  const pool = (split === 'valid_unseen' ? pools.unseen : pools.seen).get(family) ?? [];
  const combo = rng.pick(pool);
  return { game: buildGame(combo, rng), room: combo.room.name, family };
}

function buildGame(combo: GoalCombo, rng: Rng): HouseholdGame {
  const { family, room, objectKind: goalKind, target } = combo;
  const isLook = family === 'look_at_obj_in_light';
  const counts = new Map<string, number>();
  for (const [kind, [min, max]] of Object.entries(room.receptacles)) counts.set(kind, rng.int(min, max + 1));
  const present = (k: string): boolean => (counts.get(k) ?? 0) > 0;
  const ensure = (k: string): void => {
    if (!present(k)) counts.set(k, 1);
  };
  if (!isLook) ensure(target);
  const appliance = familyAppliance(family);
  if (appliance) ensure(appliance);
  const hosts = Object.keys(room.receptacles).filter((k) => LAMP_HOSTS.includes(k));
  const withLamp = isLook || (hosts.length > 0 && rng.bernoulli(0.5));
  if (withLamp && !hosts.some(present)) ensure(rng.pick(hosts));
  const startKinds = (name: string, avoid?: string): string[] => {
    const kind = objectKind(name);
    return Object.keys(room.receptacles).filter((k) => k !== avoid && kind?.places.includes(k));
  };
  const goalStarts = startKinds(goalKind.name, isLook ? undefined : target);
  if (!goalStarts.some(present)) ensure(rng.pick(goalStarts));

  const receptacles: GameReceptacle[] = [];
  for (const kind of Object.keys(room.receptacles)) {
    const n = counts.get(kind) ?? 0;
    for (let i = 1; i <= n; i++) {
      receptacles.push({
        name: `${kind} ${i}`,
        kind,
        openable: isOpenableKind(kind),
        location: receptacles.length + 1,
      });
    }
  }
  const byKind = (kinds: readonly string[]): number[] =>
    receptacles.flatMap((r, i) => (kinds.includes(r.kind) ? [i] : []));

  const placed: Array<{ kind: string; rec: number }> = [];
  const goalRecs = byKind(goalStarts);
  const goalCount = family === 'pick_two_obj_and_place' ? rng.int(2, 4) : rng.int(1, 4);
  for (let i = 0; i < goalCount; i++) placed.push({ kind: goalKind.name, rec: rng.pick(goalRecs) });
  if (withLamp) placed.push({ kind: 'desklamp', rec: rng.pick(byKind(hosts)) });
  const distractorKinds = room.objects.filter((k) => k !== goalKind.name);
  const nDistractors = rng.int(6, 16);
  for (let i = 0; i < nDistractors; i++) {
    const kind = rng.pick(distractorKinds);
    const recs = byKind(startKinds(kind));
    if (recs.length > 0) placed.push({ kind, rec: rng.pick(recs) });
  }

  // Number objects after shuffling, so `apple 1` is not always the goal's apple.
  const order = rng.shuffle(placed);
  const numbers = new Map<string, number>();
  const objects: GameObject[] = [];
  const objectIn: number[] = [];
  const objectLocation: number[] = [];
  for (const p of order) {
    const n = (numbers.get(p.kind) ?? 0) + 1;
    numbers.set(p.kind, n);
    const kind = objectKind(p.kind);
    objects.push(
      kind
        ? {
            name: `${p.kind} ${n}`,
            kind: p.kind,
            pickupable: true,
            heatable: kind.heatable,
            coolable: kind.coolable,
            cleanable: kind.cleanable,
            toggleable: false,
            sliceable: false,
            receptacleObject: RECEPTACLE_OBJECTS.has(p.kind),
          }
        : { ...LAMP, name: `${p.kind} ${n}` },
    );
    objectIn.push(p.rec);
    objectLocation.push(receptacles[p.rec]?.location ?? -1);
  }

  const state = familyState(family);
  const goal: HouseholdGoal = {
    family,
    objectKind: goalKind.name,
    count: family === 'pick_two_obj_and_place' ? 2 : 1,
    ...(isLook ? { lampKind: 'desklamp' } : { receptacleKind: target }),
    ...(state ? { state } : {}),
  };
  return {
    locations: ['middle of the room', ...receptacles.map((_, i) => `loc ${i + 1}`)],
    receptacles,
    objects,
    canContain: CAN_CONTAIN,
    init: { agentLocation: 0, objectIn, objectLocation },
    goal,
    taskText: `${describeGoal(goal, rng.int(2) as 0 | 1)}.`,
    grammar: alfredGrammar(),
    agentName: 'agent',
  };
}
