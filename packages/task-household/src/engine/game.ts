import type { HouseholdGoal } from './goal.js';
import type { Grammar } from './grammar.js';
import type { PddlFormula } from './pddl-formula.js';

export interface GameReceptacle {
  /** On-screen name: `cabinet 3`. */
  name: string;
  /** On-screen type: `cabinet`. */
  kind: string;
  openable: boolean;
  location: number;
}

export interface GameObject {
  name: string;
  kind: string;
  pickupable: boolean;
  heatable: boolean;
  coolable: boolean;
  cleanable: boolean;
  toggleable: boolean;
  sliceable: boolean;
  /** Mugs, bowls, pots: `examine` lists what is inside them. */
  receptacleObject: boolean;
}

/** The initial facts that change during an episode. */
export interface GameInit {
  agentLocation: number;
  /** Receptacle index per object, or -1 (on the floor, or nowhere). */
  objectIn: readonly number[];
  /** Location index per object, or -1. */
  objectLocation: readonly number[];
  opened?: readonly number[];
  hot?: readonly number[];
  cool?: readonly number[];
  clean?: readonly number[];
  on?: readonly number[];
  toggled?: readonly number[];
  sliced?: readonly number[];
  /** [inner, outer] object pairs (`inReceptacleObject`). */
  inReceptacleObject?: ReadonlyArray<readonly [number, number]>;
}

/** How a loaded game's PDDL constants map onto the engine's indices (lower-cased names). */
export interface PddlBinding {
  objects: readonly string[];
  receptacles: readonly string[];
  locations: readonly string[];
  agents: readonly string[];
  /** The agent the player controls. */
  player: string;
  /** `objectType` per object and `receptacleType` per receptacle (`potatotype`). */
  objectTypes: readonly string[];
  receptacleTypes: readonly string[];
  /** Facts no action changes, as `predicate arg1 arg2`. */
  staticFacts: ReadonlySet<string>;
}

/**
 * One household game, whatever made it (the generator or a real `game.tw-pddl`): the static world, the
 * initial state, the goal, and the grammar its texts come from.
 */
export interface HouseholdGame {
  locations: readonly string[];
  receptacles: readonly GameReceptacle[];
  objects: readonly GameObject[];
  /** `canContain`: `${receptacleKind}|${objectKind}` pairs. */
  canContain: ReadonlySet<string>;
  init: GameInit;
  goal: HouseholdGoal;
  /** When set (loaded games), success is this PDDL formula evaluated on the state, not `goal`. */
  goalFormula?: PddlFormula;
  /** Loaded games: the PDDL names behind the engine's indices, for evaluating `goalFormula`. */
  pddl?: PddlBinding;
  /** The goal sentence without `Your task is to: ` (`put a hot potato in sinkbasin.`). */
  taskText: string;
  grammar: Grammar;
  /** The player's name (`alice` in the multi-agent fixture). */
  agentName: string;
  /** A game file's own winning commands, when it has them. */
  walkthrough?: readonly string[];
}
