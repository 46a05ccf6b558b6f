import { InvalidArgumentError, MissingFieldError } from '@skillrl/core';
import { alfredGrammar } from '../engine/alfred-twl2.js';
import type { GameObject, GameReceptacle, HouseholdGame } from '../engine/game.js';
import { describeGoal, type HouseholdGoal, type ObjectState } from '../engine/goal.js';
import { parseGrammar } from '../engine/grammar.js';
import { formulaAtoms, type PddlFormula, parseFormula } from '../engine/pddl-formula.js';
import { parseSExpressions, type SExpr } from '../engine/s-expression.js';
import type { HouseholdFamily } from '../families.js';

/** The JSON of an ALFWorld `game.tw-pddl` file (the keys this loader reads). */
export interface AlfworldGameFile {
  pddl_problem: string;
  pddl_domain?: string;
  grammar?: string;
  solvable?: boolean;
  walkthrough?: string[];
  [key: string]: unknown;
}

export interface LoadAlfworldOptions {
  /** The agent the player controls; default the first one the problem declares. */
  agent?: string;
}

/** Facts that actions change; the rest of `:init` is static. */
const DYNAMIC = new Set([
  'atlocation',
  'inreceptacle',
  'objectatlocation',
  'opened',
  'ishot',
  'iscool',
  'isclean',
  'ison',
  'istoggled',
  'issliced',
  'holds',
  'holdsany',
  'inreceptacleobject',
]);

/** `SinkBasinType` → `sinkbasin`: the on-screen type of a PDDL type constant. */
function kindOf(type: string): string {
  return type.replace(/type$/i, '').toLowerCase();
}

function section(define: SExpr[], head: string): SExpr[] | undefined {
  for (const part of define) {
    if (Array.isArray(part) && typeof part[0] === 'string' && part[0].toLowerCase() === head) return part;
  }
  return undefined;
}

/**
 * Runs a real ALFWorld game file on the household engine: parses its PDDL problem (objects, `:init`,
 * goal) and its grammar, numbers entities per type in declaration order (`cabinet 1`…), and evaluates the
 * PDDL goal itself for success. Several agents (ALFWorld's multi-agent debug games): the player is one of
 * them; the others stand still.
 */
export function loadAlfworldGame(
  json: string | AlfworldGameFile,
  options: LoadAlfworldOptions = {},
): HouseholdGame {
  let file: AlfworldGameFile;
  try {
    file = typeof json === 'string' ? (JSON.parse(json) as AlfworldGameFile) : json;
  } catch (cause) {
    throw new InvalidArgumentError(
      'json',
      `expected the JSON text of a game.tw-pddl file: ${(cause as Error).message}`,
      {
        cause,
      },
    );
  }
  if (!file || typeof file.pddl_problem !== 'string') {
    throw new MissingFieldError('loadAlfworldGame', 'pddl_problem', 'pass the JSON of a game.tw-pddl file');
  }
  const define = parseSExpressions(file.pddl_problem, 'pddl_problem').find(
    (e): e is SExpr[] => Array.isArray(e) && e[0] === 'define',
  );
  if (!define) throw new InvalidArgumentError('pddl_problem', 'expected a `(define (problem …) …)` form');
  const objectsPart = section(define, ':objects') ?? [];
  const initPart = section(define, ':init') ?? [];
  const goalPart = section(define, ':goal');
  if (!goalPart?.[1]) throw new MissingFieldError('loadAlfworldGame', 'pddl_problem (:goal …)');

  const byType = new Map<string, string[]>();
  const tokens = objectsPart.slice(1).map((t) => (typeof t === 'string' ? t.toLowerCase() : ''));
  let pending: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] as string;
    if (tok === '-') {
      const type = tokens[++i] as string;
      const list = byType.get(type) ?? [];
      list.push(...pending);
      byType.set(type, list);
      pending = [];
    } else if (tok) {
      pending.push(tok);
    }
  }

  const facts: string[][] = [];
  for (const f of initPart.slice(1)) {
    if (Array.isArray(f) && f.every((x) => typeof x === 'string'))
      facts.push((f as string[]).map((x) => x.toLowerCase()));
  }
  const factsOf = (p: string): string[][] => facts.filter((f) => f[0] === p);
  const has = new Set(facts.map((f) => f.join(' ')));

  const agents = byType.get('agent') ?? [];
  const player = options.agent?.toLowerCase() ?? agents[0];
  if (!player || !agents.includes(player)) {
    throw new InvalidArgumentError(
      'options.agent',
      `expected one of ${agents.join(', ') || '(no agents declared)'}`,
    );
  }
  const locationNames = byType.get('location') ?? [];
  const locIndex = new Map(locationNames.map((l, i) => [l, i]));

  const recType = new Map(factsOf('receptacletype').map((f) => [f[1] as string, f[2] as string]));
  const recAt = new Map(factsOf('receptacleatlocation').map((f) => [f[1] as string, f[2] as string]));
  const pddlReceptacles = (byType.get('receptacle') ?? []).filter((r) => recType.has(r));
  const counters = new Map<string, number>();
  const number = (kind: string): string => {
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    return `${kind} ${n}`;
  };
  const receptacles: GameReceptacle[] = pddlReceptacles.map((r) => {
    const kind = kindOf(recType.get(r) as string);
    return {
      name: number(kind),
      kind,
      openable: has.has(`openable ${r}`),
      location: locIndex.get(recAt.get(r) ?? '') ?? -1,
    };
  });

  const objType = new Map(factsOf('objecttype').map((f) => [f[1] as string, f[2] as string]));
  // ALFWorld also declares bare type names (`Apple - object`): those are not things. A placed thing is
  // named `Type_bar_x_bar_y_bar_z`; one without an `objectType` fact (the fixture's faucet) takes its prefix.
  const pddlObjects = (byType.get('object') ?? []).filter((o) => objType.has(o) || o.includes('_bar_'));
  for (const o of pddlObjects) if (!objType.has(o)) objType.set(o, `${o.slice(0, o.indexOf('_bar_'))}type`);
  counters.clear();
  const objects: GameObject[] = pddlObjects.map((o) => {
    const kind = kindOf(objType.get(o) as string);
    return {
      name: number(kind),
      kind,
      pickupable: has.has(`pickupable ${o}`),
      heatable: has.has(`heatable ${o}`),
      coolable: has.has(`coolable ${o}`),
      cleanable: has.has(`cleanable ${o}`),
      toggleable: has.has(`toggleable ${o}`),
      sliceable: has.has(`sliceable ${o}`),
      receptacleObject: has.has(`isreceptacleobject ${o}`),
    };
  });
  const objIndex = new Map(pddlObjects.map((o, i) => [o, i]));
  const recIndex = new Map(pddlReceptacles.map((r, i) => [r, i]));
  const indices = (p: string, map: Map<string, number>): number[] =>
    factsOf(p).flatMap((f) => {
      const i = map.get(f[1] as string);
      return i === undefined ? [] : [i];
    });

  const objectIn = pddlObjects.map(() => -1);
  for (const f of factsOf('inreceptacle')) {
    const o = objIndex.get(f[1] as string);
    const r = recIndex.get(f[2] as string);
    if (o !== undefined && r !== undefined) objectIn[o] = r;
  }
  const objectLocation = pddlObjects.map(() => -1);
  for (const f of factsOf('objectatlocation')) {
    const o = objIndex.get(f[1] as string);
    const l = locIndex.get(f[2] as string);
    if (o !== undefined && l !== undefined) objectLocation[o] = l;
  }
  const start = factsOf('atlocation').find((f) => f[1] === player);
  const agentLocation = locIndex.get(start?.[2] ?? '');
  if (agentLocation === undefined) {
    throw new MissingFieldError('loadAlfworldGame', `pddl_problem (:init (atLocation ${player} …))`);
  }

  const formula = parseFormula(goalPart[1] as SExpr);
  const goal = recognizeGoal(formula);
  const grammar = typeof file.grammar === 'string' ? parseGrammar(file.grammar) : alfredGrammar();
  const taskRhs = grammar.rhs('task');
  const taskMatch = taskRhs ? /^Your task is to: (.*)$/s.exec(taskRhs) : null;
  const taskText =
    taskMatch && !/UNKNOWN GOAL/.test(taskMatch[1] as string)
      ? (taskMatch[1] as string)
      : `${describeGoal(goal, 0)}.`;

  const game: HouseholdGame = {
    locations: locationNames.map((_, i) => `loc ${i + 1}`),
    receptacles,
    objects,
    canContain: new Set(
      factsOf('cancontain').map((f) => `${kindOf(f[1] as string)}|${kindOf(f[2] as string)}`),
    ),
    init: {
      agentLocation,
      objectIn,
      objectLocation,
      opened: indices('opened', recIndex),
      hot: indices('ishot', objIndex),
      cool: indices('iscool', objIndex),
      clean: indices('isclean', objIndex),
      on: indices('ison', objIndex),
      toggled: indices('istoggled', objIndex),
      sliced: indices('issliced', objIndex),
      inReceptacleObject: factsOf('inreceptacleobject').flatMap((f) => {
        const inner = objIndex.get(f[1] as string);
        const outer = objIndex.get(f[2] as string);
        return inner === undefined || outer === undefined || inner === outer ? [] : [[inner, outer] as const];
      }),
    },
    goal,
    goalFormula: formula,
    pddl: {
      objects: pddlObjects,
      receptacles: pddlReceptacles,
      locations: locationNames,
      agents,
      player,
      objectTypes: pddlObjects.map((o) => objType.get(o) as string),
      receptacleTypes: pddlReceptacles.map((r) => recType.get(r) as string),
      staticFacts: new Set(
        facts
          .filter((f) => !DYNAMIC.has(f[0] as string) || (f[0] === 'atlocation' && f[1] !== player))
          .map((f) => f.join(' ')),
      ),
    },
    taskText,
    grammar,
    agentName: player,
  };
  if (Array.isArray(file.walkthrough)) game.walkthrough = file.walkthrough.map(String);
  return game;
}

/**
 * Reads which of the six task types a PDDL goal is, from its atoms: the object and receptacle types, the
 * state asked for, a lamp, and how many distinct objects it quantifies. The planner works from this; the
 * environment still judges success on the formula itself.
 */
export function recognizeGoal(formula: PddlFormula): HouseholdGoal {
  const atoms = formulaAtoms(formula).filter((a) => a.positive);
  const typeOf = new Map<string, string>();
  for (const a of atoms) {
    if ((a.predicate === 'objecttype' || a.predicate === 'receptacletype') && a.args[0] && a.args[1]) {
      typeOf.set(a.args[0], a.args[1]);
    }
  }
  const lampVar = atoms.find((a) => a.predicate === 'istoggled' || a.predicate === 'toggleable')?.args[0];
  const placed = atoms.filter((a) => a.predicate === 'inreceptacle');
  const held = atoms.find((a) => a.predicate === 'holds')?.args[1];
  const objectVar = placed[0]?.args[0] ?? held;
  const objectType = objectVar ? typeOf.get(objectVar) : undefined;
  if (!objectType) {
    throw new InvalidArgumentError(
      'goal',
      'expected an ALFWorld goal naming an object type (objectType ?o XType)',
    );
  }
  const state: ObjectState | undefined = atoms.some((a) => a.predicate === 'ishot')
    ? 'hot'
    : atoms.some((a) => a.predicate === 'iscool')
      ? 'cool'
      : atoms.some((a) => a.predicate === 'isclean')
        ? 'clean'
        : undefined;
  if (lampVar && held) {
    const lamp = typeOf.get(lampVar);
    return {
      family: 'look_at_obj_in_light',
      objectKind: kindOf(objectType),
      lampKind: lamp ? kindOf(lamp) : 'desklamp',
      count: 1,
    };
  }
  const recVar = placed[0]?.args[1];
  const recType = recVar ? typeOf.get(recVar) : undefined;
  if (!recType) throw new InvalidArgumentError('goal', 'expected an ALFWorld goal naming a receptacle type');
  const placedObjects = new Set(placed.map((a) => a.args[0]));
  const family: HouseholdFamily =
    placedObjects.size >= 2
      ? 'pick_two_obj_and_place'
      : state === 'hot'
        ? 'pick_heat_then_place_in_recep'
        : state === 'cool'
          ? 'pick_cool_then_place_in_recep'
          : state === 'clean'
            ? 'pick_clean_then_place_in_recep'
            : 'pick_and_place_simple';
  return {
    family,
    objectKind: kindOf(objectType),
    receptacleKind: kindOf(recType),
    count: family === 'pick_two_obj_and_place' ? 2 : 1,
    ...(state ? { state } : {}),
  };
}
