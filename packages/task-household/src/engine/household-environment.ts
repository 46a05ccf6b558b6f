import type { Environment, StepResult } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import type { HouseholdGame } from './game.js';
import type { RenderContext } from './grammar.js';
import { evaluateFormula, type FormulaModel } from './pddl-formula.js';
import { createStateModel } from './state-model.js';

/** ALFWorld's episode limit. */
export const DEFAULT_MAX_STEPS = 50;

/** ALFWorld's answer to any command that is not admissible now. */
export const NOTHING_HAPPENS = 'Nothing happens.';

export interface HouseholdEnvironmentOptions {
  /** Step limit; ALFWorld's is 50. */
  maxSteps?: number;
  /**
   * Which placing spelling the admissible list shows: the grammar's own (`move X to Y` for alfred.twl2,
   * `put X in/on Y` for older games), `both`, or one of them. `step` accepts both whatever this says.
   */
  placeSpelling?: 'grammar' | 'move' | 'put' | 'both';
}

const GOTO = 0;
const OPEN = 1;
const CLOSE = 2;
const TAKE = 3;
const PUT = 4;
const HEAT = 5;
const COOL = 6;
const CLEAN = 7;
const USE = 8;
const EXAMINE_R = 9;
const EXAMINE_O = 10;
const INVENTORY = 11;
const LOOK = 12;
const HELP = 13;

const encode = (kind: number, a = 0, b = 0): number => kind * 0x100000 + a * 0x400 + b;

/**
 * The household engine: ALFRED's PDDL actions over a compact state, speaking the game's TextWorld grammar.
 * Generated games and loaded `game.tw-pddl` files run on this one class.
 */
export class HouseholdEnvironment implements Environment {
  readonly game: HouseholdGame;
  readonly maxSteps: number;
  readonly placeSpelling: 'move' | 'put' | 'both';

  agentLocation = 0;
  /** Index of the held object, or -1. */
  holding = -1;
  objectIn: Int16Array;
  objectLocation: Int16Array;
  opened: Uint8Array;
  hot: Uint8Array;
  cool: Uint8Array;
  clean: Uint8Array;
  on: Uint8Array;
  toggled: Uint8Array;
  sliced: Uint8Array;
  innerOf: Int16Array;
  steps = 0;
  won = false;
  done = false;

  private actions: Map<string, number> | null = null;
  private admissible: string[] | null = null;
  private readonly recAtLocation: number[][];
  private readonly gotoCommands: string[];
  private readonly accepts: Uint8Array;
  private readonly goalObject: Uint8Array;
  private readonly targetRec: Uint8Array;
  private readonly lamps: number[];
  private readonly introOrder: string[];
  private readonly prefix: string;
  private readonly formulaModel: FormulaModel | undefined;

  constructor(game: HouseholdGame, options: HouseholdEnvironmentOptions = {}) {
    const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
    if (!Number.isInteger(maxSteps) || maxSteps < 1) {
      throw new InvalidArgumentError('options.maxSteps', `expected an integer >= 1, got ${maxSteps}`);
    }
    this.game = game;
    this.maxSteps = maxSteps;
    const spelling = options.placeSpelling ?? 'grammar';
    const grammarPut = game.grammar.templates.PutObject?.source.startsWith('put') ? 'put' : 'move';
    this.placeSpelling = spelling === 'grammar' ? grammarPut : spelling;
    const nO = game.objects.length;
    const nR = game.receptacles.length;
    this.objectIn = new Int16Array(nO);
    this.objectLocation = new Int16Array(nO);
    this.opened = new Uint8Array(nR);
    this.hot = new Uint8Array(nO);
    this.cool = new Uint8Array(nO);
    this.clean = new Uint8Array(nO);
    this.on = new Uint8Array(nO);
    this.toggled = new Uint8Array(nO);
    this.sliced = new Uint8Array(nO);
    this.innerOf = new Int16Array(nO);
    this.recAtLocation = game.locations.map(() => []);
    game.receptacles.forEach((r, i) => {
      this.recAtLocation[r.location]?.push(i);
    });
    this.gotoCommands = game.receptacles.map((r) => game.grammar.command('GotoLocation', { r: r.name }));
    this.accepts = new Uint8Array(nR * nO);
    for (let r = 0; r < nR; r++) {
      for (let o = 0; o < nO; o++) {
        const ok = game.canContain.has(`${game.receptacles[r]?.kind}|${game.objects[o]?.kind}`);
        this.accepts[r * nO + o] = ok ? 1 : 0;
      }
    }
    this.goalObject = new Uint8Array(nO);
    game.objects.forEach((o, i) => {
      if (o.kind === game.goal.objectKind) this.goalObject[i] = 1;
    });
    this.targetRec = new Uint8Array(nR);
    game.receptacles.forEach((r, i) => {
      if (r.kind === game.goal.receptacleKind) this.targetRec[i] = 1;
    });
    this.lamps = [];
    game.objects.forEach((o, i) => {
      if (o.toggleable && o.kind === game.goal.lampKind) this.lamps.push(i);
    });
    // ALFWorld lists the room's receptacles by type, highest number first ("a cabinet 4, …, a cabinet 1").
    this.introOrder = game.receptacles
      .map((r) => r.name)
      .sort((a, b) => {
        const [ka, na] = splitName(a);
        const [kb, nb] = splitName(b);
        return ka < kb ? -1 : ka > kb ? 1 : nb - na;
      });
    this.prefix = `${game.agentName}: `;
    this.formulaModel = game.goalFormula ? createStateModel(this) : undefined;
    this.restart();
  }

  /** Resets the state to the game's initial facts. */
  private restart(): void {
    const init = this.game.init;
    this.agentLocation = init.agentLocation;
    this.holding = -1;
    this.objectIn.set(init.objectIn);
    this.objectLocation.set(init.objectLocation);
    this.opened.fill(0);
    for (const i of init.opened ?? []) this.opened[i] = 1;
    const fill = (arr: Uint8Array, idx: readonly number[] | undefined): void => {
      arr.fill(0);
      for (const i of idx ?? []) arr[i] = 1;
    };
    fill(this.hot, init.hot);
    fill(this.cool, init.cool);
    fill(this.clean, init.clean);
    fill(this.on, init.on);
    fill(this.toggled, init.toggled);
    fill(this.sliced, init.sliced);
    this.innerOf.fill(-1);
    for (const [inner, outer] of init.inReceptacleObject ?? []) this.innerOf[inner] = outer;
    this.steps = 0;
    this.won = false;
    this.done = false;
    this.invalidate();
  }

  reset(): string {
    this.restart();
    return this.game.grammar.render('intro', this.context());
  }

  /** A copy of this environment in the same state (the planner searches on copies). */
  clone(options: { maxSteps?: number } = {}): HouseholdEnvironment {
    const copy = Object.create(HouseholdEnvironment.prototype) as HouseholdEnvironment;
    Object.assign(copy, this);
    if (options.maxSteps !== undefined) (copy as { maxSteps: number }).maxSteps = options.maxSteps;
    copy.objectIn = this.objectIn.slice();
    copy.objectLocation = this.objectLocation.slice();
    copy.opened = this.opened.slice();
    copy.hot = this.hot.slice();
    copy.cool = this.cool.slice();
    copy.clean = this.clean.slice();
    copy.on = this.on.slice();
    copy.toggled = this.toggled.slice();
    copy.sliced = this.sliced.slice();
    copy.innerOf = this.innerOf.slice();
    (copy as unknown as { formulaModel: unknown }).formulaModel = this.game.goalFormula
      ? createStateModel(copy)
      : undefined;
    copy.invalidate();
    return copy;
  }

  /**
   * GiGPO's anchor state: the observation text itself, as verl-agent groups ALFWorld steps (its `anchor_obs`
   * is the text observation). Returned as it is, so the episode runner stores nothing extra and core's
   * `stateKeyOf` keys the step by its observation.
   */
  stateKey(observation: string): string {
    return observation;
  }

  admissibleActions(): string[] {
    if (!this.admissible) this.build();
    return (this.admissible as string[]).slice();
  }

  step(action: string): StepResult {
    if (this.done) {
      return {
        observation: NOTHING_HAPPENS,
        reward: 0,
        done: true,
        info: { won: this.won, steps: this.steps },
      };
    }
    this.steps++;
    if (!this.actions) this.build();
    let command = typeof action === 'string' ? action.trim().toLowerCase() : '';
    if (command.includes('  ')) command = command.replace(/\s+/g, ' ');
    if (command.startsWith(this.prefix)) command = command.slice(this.prefix.length);
    const code = (this.actions as Map<string, number>).get(command);
    let observation: string;
    if (code === undefined) {
      observation = this.fallback(command);
    } else {
      observation = this.apply(code);
    }
    if (!this.won) this.won = this.goalReached();
    this.done = this.won || this.steps >= this.maxSteps;
    return {
      observation,
      reward: this.won ? 1 : 0,
      done: this.done,
      info: { won: this.won, steps: this.steps, valid: observation !== NOTHING_HAPPENS },
    };
  }

  /** Whether the game's goal holds now. */
  goalReached(): boolean {
    if (this.formulaModel && this.game.goalFormula)
      return evaluateFormula(this.game.goalFormula, this.formulaModel);
    const goal = this.game.goal;
    if (goal.family === 'look_at_obj_in_light') {
      if (this.holding < 0 || !this.goalObject[this.holding]) return false;
      for (const lamp of this.lamps) {
        const r = this.objectIn[lamp] as number;
        const loc = r >= 0 ? this.game.receptacles[r]?.location : this.objectLocation[lamp];
        if (this.toggled[lamp] && loc === this.agentLocation) return true;
      }
      return false;
    }
    if (goal.count === 2) {
      const counts = new Uint8Array(this.game.receptacles.length);
      for (let o = 0; o < this.objectIn.length; o++) {
        const r = this.objectIn[o] as number;
        if (r >= 0 && this.goalObject[o] && this.targetRec[r] && this.stateOk(o)) {
          const c = (counts[r] as number) + 1;
          if (c >= 2) return true;
          counts[r] = c;
        }
      }
      return false;
    }
    for (let o = 0; o < this.objectIn.length; o++) {
      const r = this.objectIn[o] as number;
      if (r >= 0 && this.goalObject[o] && this.targetRec[r] && this.stateOk(o)) return true;
    }
    return false;
  }

  /** Whether object `o` is in the state the goal asks for. */
  stateOk(o: number): boolean {
    const state = this.game.goal.state;
    if (state === 'hot') return this.hot[o] === 1;
    if (state === 'cool') return this.cool[o] === 1;
    if (state === 'clean') return this.clean[o] === 1;
    return true;
  }

  /** Whether receptacle `r` is open, or needs no opening. */
  accessible(r: number): boolean {
    return !this.game.receptacles[r]?.openable || this.opened[r] === 1;
  }

  /** Whether receptacle `r` may hold object `o` (`canContain`). */
  acceptsObject(r: number, o: number): boolean {
    return this.accepts[r * this.game.objects.length + o] === 1;
  }

  /** Receptacles at location `l`. */
  receptaclesAt(l: number): readonly number[] {
    return this.recAtLocation[l] ?? [];
  }

  private invalidate(): void {
    this.actions = null;
    this.admissible = null;
  }

  private build(): void {
    const game = this.game;
    const g = game.grammar;
    const map = new Map<string, number>();
    const list: string[] = [];
    const add = (cmd: string, code: number, listed = true): void => {
      if (!map.has(cmd)) {
        map.set(cmd, code);
        if (listed) list.push(cmd);
      }
    };
    const here = this.recAtLocation[this.agentLocation] ?? [];
    for (let r = 0; r < this.gotoCommands.length; r++) {
      if (game.receptacles[r]?.location !== this.agentLocation)
        add(this.gotoCommands[r] as string, encode(GOTO, r));
    }
    const held = this.holding;
    const heldObj = held >= 0 ? game.objects[held] : undefined;
    for (const r of here) {
      const rec = game.receptacles[r];
      if (!rec) continue;
      const rn = rec.name;
      if (rec.openable) {
        if (this.opened[r]) add(g.command('CloseObject', { r: rn }), encode(CLOSE, r));
        else add(g.command('OpenObject', { r: rn }), encode(OPEN, r));
      }
      add(g.command('examineReceptacle', { r: rn }), encode(EXAMINE_R, r));
      const open = this.accessible(r);
      for (let o = 0; o < this.objectIn.length; o++) {
        if (this.objectIn[o] !== r) continue;
        const obj = game.objects[o];
        if (!obj) continue;
        if (obj.toggleable) add(g.command('ToggleObject', { o: obj.name }), encode(USE, o, r));
        if (open && held < 0 && obj.pickupable) {
          add(g.command('PickupObject', { o: obj.name, r: rn }), encode(TAKE, o, r));
        }
      }
      if (heldObj) {
        const on = heldObj.name;
        if (open && this.acceptsObject(r, held)) {
          const move = `move ${on} to ${rn}`;
          const put = `put ${on} in/on ${rn}`;
          const code = encode(PUT, held, r);
          if (this.placeSpelling === 'move') {
            add(move, code);
            add(put, code, false);
          } else if (this.placeSpelling === 'put') {
            add(put, code);
            add(move, code, false);
          } else {
            add(put, code);
            add(move, code);
          }
        }
        if (rec.kind === 'microwave' && heldObj.heatable)
          add(g.command('HeatObject', { o: on, r: rn }), encode(HEAT, held, r));
        if (rec.kind === 'fridge' && heldObj.coolable)
          add(g.command('CoolObject', { o: on, r: rn }), encode(COOL, held, r));
        if (rec.kind === 'sinkbasin' && heldObj.cleanable) {
          add(g.command('CleanObject', { o: on, r: rn }), encode(CLEAN, held, r));
        }
      }
    }
    if (heldObj) add(g.command('examineObject', { o: heldObj.name }), encode(EXAMINE_O, held));
    add(g.command('inventory', {}), encode(INVENTORY));
    add(g.command('look', {}), encode(LOOK));
    if (g.templates.help) add(g.command('help', {}), encode(HELP), false);
    this.actions = map;
    this.admissible = list;
  }

  /** `examine X` for an object in view, which ALFWorld accepts but does not list. */
  private fallback(command: string): string {
    if (command.startsWith('examine ')) {
      const name = command.slice('examine '.length);
      const o = this.game.objects.findIndex((x) => x.name === name);
      if (o >= 0) {
        const r = this.objectIn[o] as number;
        if (r >= 0 && this.game.receptacles[r]?.location === this.agentLocation && this.accessible(r)) {
          return this.apply(encode(EXAMINE_O, o));
        }
      }
    }
    return NOTHING_HAPPENS;
  }

  private apply(code: number): string {
    const kind = Math.floor(code / 0x100000);
    const a = Math.floor(code / 0x400) % 0x400;
    const b = code % 0x400;
    const g = this.game.grammar;
    switch (kind) {
      case GOTO: {
        this.agentLocation = this.game.receptacles[a]?.location ?? this.agentLocation;
        this.invalidate();
        return g.render('GotoLocation.feedback', this.context(a));
      }
      case OPEN:
        this.opened[a] = 1;
        this.invalidate();
        return g.render('OpenObject.feedback', this.context(a));
      case CLOSE:
        this.opened[a] = 0;
        this.invalidate();
        return g.render('CloseObject.feedback', this.context(a));
      case TAKE:
        this.objectIn[a] = -1;
        this.objectLocation[a] = -1;
        this.holding = a;
        this.invalidate();
        return g.render('PickupObject.feedback', this.context(b, a));
      case PUT:
        this.objectIn[a] = b;
        this.objectLocation[a] = this.agentLocation;
        this.holding = -1;
        this.invalidate();
        return g.render('PutObject.feedback', this.context(b, a));
      case HEAT:
        this.hot[a] = 1;
        this.cool[a] = 0;
        return g.render('heatObject.feedback', this.context(b, a));
      case COOL:
        this.cool[a] = 1;
        this.hot[a] = 0;
        return g.render('coolObject.feedback', this.context(b, a));
      case CLEAN:
        this.clean[a] = 1;
        return g.render('cleanObject.feedback', this.context(b, a));
      case USE:
        this.on[a] = this.on[a] ? 0 : 1;
        this.toggled[a] = 1;
        return g.render('toggleObject.feedback', this.context(b, a));
      case EXAMINE_R:
        return g.render('examineReceptacle.feedback', this.context(a));
      case EXAMINE_O:
        return g.render('examineObject.feedback', this.context(-1, a));
      case INVENTORY:
        return g.render('inventory.feedback', this.context());
      case LOOK:
        return g.render('look.feedback', this.context());
      case HELP:
        return g.render('help.feedback', this.context());
      default:
        return NOTHING_HAPPENS;
    }
  }

  private objectsIn(r: number): string[] {
    const out: string[] = [];
    for (let o = 0; o < this.objectIn.length; o++) {
      if (this.objectIn[o] === r) out.push(this.game.objects[o]?.name as string);
    }
    return out;
  }

  private floorObjects(): string[] {
    const out: string[] = [];
    for (let o = 0; o < this.objectIn.length; o++) {
      if (this.objectIn[o] === -1 && o !== this.holding && this.objectLocation[o] === this.agentLocation) {
        out.push(this.game.objects[o]?.name as string);
      }
    }
    return out;
  }

  /** The render context for receptacle `r` and object `o` (either may be -1). */
  private context(r = -1, o = -1): RenderContext {
    const game = this.game;
    const rec = r >= 0 ? game.receptacles[r] : undefined;
    const obj = o >= 0 ? game.objects[o] : undefined;
    const vars: Record<string, string> = {
      a: game.agentName,
      lend: game.locations[this.agentLocation] ?? '',
    };
    if (rec) vars.r = rec.name;
    if (obj) vars.o = obj.name;
    let floor: string[] | null = null;
    const getFloor = (): string[] => {
      if (!floor) floor = this.floorObjects();
      return floor;
    };
    const here = this.recAtLocation[this.agentLocation] ?? [];
    const list = (symbol: string): readonly string[] => {
      switch (symbol) {
        case 'examineReceptacle.feedback':
          return r >= 0 ? this.objectsIn(r) : [];
        case 'inventory.feedback':
          return this.holding >= 0 ? [game.objects[this.holding]?.name as string] : [];
        case 'look-variations':
          return here.map((i) => game.receptacles[i]?.name as string);
        case 'list_objects_on_the_floor':
          return getFloor();
        case 'list_appliances':
          return this.introOrder;
        case 'examineObject.feedback': {
          const inner: string[] = [];
          for (let i = 0; i < this.innerOf.length; i++) {
            if (this.innerOf[i] === o) inner.push(game.objects[i]?.name as string);
          }
          return inner;
        }
        default:
          return [];
      }
    };
    return {
      vars,
      list,
      overrides: { task: `Your task is to: ${game.taskText}` },
      holds: (p, symbol) => {
        switch (p) {
          case 'openable':
            return rec?.openable === true;
          case 'opened':
            return r >= 0 && this.opened[r] === 1;
          case 'holdsany':
            return this.holding >= 0;
          case 'isreceptacleobject':
            return obj?.receptacleObject === true;
          case 'isclean':
            return o >= 0 && this.clean[o] === 1;
          case 'ishot':
            return o >= 0 && this.hot[o] === 1;
          case 'iscool':
            return o >= 0 && this.cool[o] === 1;
          case 'issliced':
            return o >= 0 && this.sliced[o] === 1;
          case 'toggleable':
            return obj?.toggleable === true;
          case 'istoggled':
            return o >= 0 && this.toggled[o] === 1;
          case 'not_istoggled':
            return o >= 0 && this.toggled[o] !== 1;
          case 'sliceable':
            return obj?.sliceable === true;
          case 'atlocation':
            return true;
          case 'receptacleatlocation':
            // In `list_appliances` the location is free (any receptacle in the room); elsewhere it is the agent's.
            return symbol === 'list_appliances' ? game.receptacles.length > 0 : here.length > 0;
          case 'objectatlocation':
          case 'not_inreceptacle':
            return getFloor().length > 0;
          default:
            return false;
        }
      },
    };
  }
}

function splitName(name: string): [string, number] {
  const i = name.lastIndexOf(' ');
  return i < 0 ? [name, 0] : [name.slice(0, i), Number(name.slice(i + 1)) || 0];
}
