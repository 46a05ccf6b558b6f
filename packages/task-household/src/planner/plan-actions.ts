import { SkillrlError } from '@skillrl/core';
import type { HouseholdEnvironment } from '../engine/household-environment.js';
import { NOTHING_HAPPENS } from '../engine/household-environment.js';
import { familyAppliance } from '../generator/goal-combos.js';

const SYMBOL = Symbol.for('skillrl.error.household-plan');

/** The planner found no way on (an unsolvable game) or the engine refused one of its steps. */
export class PlanError extends SkillrlError {
  constructor(message: string) {
    super('SKILLRL_HOUSEHOLD_PLAN', message);
    // A marker rather than instanceof: it survives two copies of the package side by side.
    Object.defineProperty(this, SYMBOL, { value: true });
    this.name = 'PlanError';
  }

  static override isInstance(error: unknown): error is PlanError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[SYMBOL] === true;
  }
}

export interface PlanOptions {
  /** Give up after this many actions (default 200). */
  maxActions?: number;
}

/**
 * The expert: the actions that win the game from `env`'s current state. It reads the true state (like
 * ALFWorld's handcoded expert), so it never searches: go to the object, open, take, transform at the
 * appliance or light the lamp, go to the target, open, place. Each step is checked on a copy of the
 * environment; `env` itself is not touched. Throws `PlanError` if the goal cannot be reached.
 */
export function planActions(env: HouseholdEnvironment, options: PlanOptions = {}): string[] {
  const maxActions = options.maxActions ?? 200;
  const sim = env.clone({ maxSteps: Number.MAX_SAFE_INTEGER });
  const plan: string[] = [];
  while (!sim.won) {
    if (plan.length >= maxActions) throw new PlanError(`no plan within ${maxActions} actions`);
    const action = nextAction(sim);
    const result = sim.step(action);
    if (result.observation === NOTHING_HAPPENS) {
      throw new PlanError(`the engine refused the planned action "${action}"`);
    }
    plan.push(action);
  }
  return plan;
}

/** The next action towards receptacle `r`: go there, then open it if it is closed. */
function approach(sim: HouseholdEnvironment, r: number): string | undefined {
  const rec = sim.game.receptacles[r];
  if (!rec) throw new PlanError(`receptacle ${r} does not exist`);
  if (sim.agentLocation !== rec.location) return sim.game.grammar.command('GotoLocation', { r: rec.name });
  if (!sim.accessible(r)) return sim.game.grammar.command('OpenObject', { r: rec.name });
  return undefined;
}

function placeCommand(sim: HouseholdEnvironment, o: number, r: number): string {
  const on = sim.game.objects[o]?.name as string;
  const rn = sim.game.receptacles[r]?.name as string;
  return sim.placeSpelling === 'put' ? `put ${on} in/on ${rn}` : `move ${on} to ${rn}`;
}

function take(sim: HouseholdEnvironment, o: number): string {
  const r = sim.objectIn[o] as number;
  return (
    approach(sim, r) ??
    sim.game.grammar.command('PickupObject', {
      o: sim.game.objects[o]?.name as string,
      r: sim.game.receptacles[r]?.name as string,
    })
  );
}

function place(sim: HouseholdEnvironment, o: number, r: number): string {
  return approach(sim, r) ?? placeCommand(sim, o, r);
}

/** Puts a held object that the goal does not need somewhere it fits, nearest first. */
function drop(sim: HouseholdEnvironment, o: number): string {
  const here = sim.receptaclesAt(sim.agentLocation).filter((r) => sim.acceptsObject(r, o));
  const r = here.find((x) => sim.accessible(x)) ?? here[0];
  if (r !== undefined) return place(sim, o, r);
  const anywhere = sim.game.receptacles.findIndex((_, i) => sim.acceptsObject(i, o));
  if (anywhere < 0) throw new PlanError(`nowhere to put down ${sim.game.objects[o]?.name}`);
  return place(sim, o, anywhere);
}

function nextAction(sim: HouseholdEnvironment): string {
  const { game } = sim;
  const goal = game.goal;
  const isGoal = (o: number): boolean => game.objects[o]?.kind === goal.objectKind;
  const targets = game.receptacles.flatMap((r, i) => (r.kind === goal.receptacleKind ? [i] : []));
  const held = sim.holding;

  if (goal.family === 'look_at_obj_in_light') {
    if (held >= 0 && !isGoal(held)) return drop(sim, held);
    if (held < 0) return take(sim, pickGoalObject(sim, isGoal, -1));
    const lamp = game.objects.findIndex((x) => x.toggleable && x.kind === goal.lampKind);
    if (lamp < 0) throw new PlanError(`the game has no ${goal.lampKind}`);
    const r = sim.objectIn[lamp] as number;
    const rec = game.receptacles[r];
    if (!rec) throw new PlanError(`the ${game.objects[lamp]?.name} stands in no receptacle`);
    if (sim.agentLocation !== rec.location) return game.grammar.command('GotoLocation', { r: rec.name });
    return game.grammar.command('ToggleObject', { o: game.objects[lamp]?.name as string });
  }

  if (targets.length === 0) throw new PlanError(`the game has no ${goal.receptacleKind}`);
  // Pick-two: fill the target that already holds the most finished goal objects.
  let target = targets[0] as number;
  if (goal.count === 2) {
    let best = -1;
    for (const r of targets) {
      let n = 0;
      for (let o = 0; o < sim.objectIn.length; o++)
        if (sim.objectIn[o] === r && isGoal(o) && sim.stateOk(o)) n++;
      if (n > best) {
        best = n;
        target = r;
      }
    }
  }
  if (held >= 0 && !isGoal(held)) return drop(sim, held);
  if (held < 0) return take(sim, pickGoalObject(sim, isGoal, goal.count === 2 ? target : -1));
  if (!sim.stateOk(held)) {
    const kind = familyAppliance(goal.family);
    const app = game.receptacles.findIndex((r) => r.kind === kind);
    const rec = game.receptacles[app];
    if (!rec) throw new PlanError(`the game has no ${kind}`);
    if (sim.agentLocation !== rec.location) return game.grammar.command('GotoLocation', { r: rec.name });
    const verb = goal.state === 'hot' ? 'HeatObject' : goal.state === 'cool' ? 'CoolObject' : 'CleanObject';
    return game.grammar.command(verb, { o: game.objects[held]?.name as string, r: rec.name });
  }
  return place(sim, held, target);
}

/** A goal object to fetch: not already finished inside `avoid`, reachable first. */
function pickGoalObject(sim: HouseholdEnvironment, isGoal: (o: number) => boolean, avoid: number): number {
  let fallback = -1;
  for (let o = 0; o < sim.objectIn.length; o++) {
    const r = sim.objectIn[o] as number;
    if (!isGoal(o) || r < 0 || !sim.game.objects[o]?.pickupable) continue;
    if (r === avoid && sim.stateOk(o)) continue;
    if (sim.game.receptacles[r]?.location === sim.agentLocation) return o;
    if (fallback < 0) fallback = o;
  }
  if (fallback < 0) throw new PlanError(`no reachable ${sim.game.goal.objectKind} left`);
  return fallback;
}
