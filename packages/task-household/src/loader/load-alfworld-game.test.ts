import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HouseholdEnvironment, NOTHING_HAPPENS } from '../engine/household-environment.js';
import { parseFormula } from '../engine/pddl-formula.js';
import { parseSExpressions } from '../engine/s-expression.js';
import { planActions } from '../planner/plan-actions.js';
import { type AlfworldGameFile, loadAlfworldGame, recognizeGoal } from './load-alfworld-game.js';

const text = readFileSync(new URL('../../fixtures/alfworld/game.tw-pddl', import.meta.url), 'utf8');
const file = JSON.parse(text) as AlfworldGameFile;

describe('loadAlfworldGame on the real fixture game', () => {
  it('reads the problem: 20 receptacles, 24 locations, the objects, the goal and the player', () => {
    const game = loadAlfworldGame(text);
    expect(game.receptacles).toHaveLength(20);
    expect(game.locations).toHaveLength(24);
    // 54 placed things; the bare type names (`Apple - object`) are not things.
    expect(game.objects).toHaveLength(54);
    expect(game.receptacles.filter((r) => r.kind === 'cabinet')).toHaveLength(8);
    expect(game.receptacles.filter((r) => r.kind === 'stoveburner')).toHaveLength(4);
    expect(game.receptacles.find((r) => r.kind === 'sinkbasin')?.name).toBe('sinkbasin 1');
    expect(game.goal).toEqual({
      family: 'pick_heat_then_place_in_recep',
      objectKind: 'potato',
      receptacleKind: 'sinkbasin',
      state: 'hot',
      count: 1,
    });
    expect(game.agentName).toBe('alice');
    expect(game.taskText).toBe('put a hot potato in sinkbasin.');
    expect(game.walkthrough).toBeUndefined();
  });

  it('opens in the middle of the room with the game grammar’s task', () => {
    const env = new HouseholdEnvironment(loadAlfworldGame(file));
    const intro = env.reset();
    expect(intro.startsWith('-= Welcome to TextWorld, ALFRED! =-\n\nYou are in the middle of a room.')).toBe(
      true,
    );
    expect(intro).toContain('you see a cabinet 8, a cabinet 7, a cabinet 6');
    expect(intro).toContain(', and a toaster 1.\n\nYour task is to: put a hot potato in sinkbasin.');
    expect(env.admissibleActions()).toContain('go to microwave 1');
  });

  it("is won by the planner's plan through the loader, judged on the PDDL goal itself", () => {
    const env = new HouseholdEnvironment(loadAlfworldGame(file));
    env.reset();
    const plan = planActions(env);
    expect(plan).toEqual([
      'go to countertop 2',
      'take potato 1 from countertop 2',
      'go to microwave 1',
      'heat potato 1 with microwave 1',
      'go to sinkbasin 1',
      'put potato 1 in/on sinkbasin 1',
    ]);
    const results = plan.map((a) => env.step(a));
    expect(results.slice(0, -1).every((r) => r.reward === 0 && !r.done)).toBe(true);
    expect(results.at(-1)).toMatchObject({
      observation: 'You put the potato 1 in/on the sinkbasin 1.',
      reward: 1,
      done: true,
    });
  });

  it('does not win with a cold potato: the formula asks for isHot', () => {
    const env = new HouseholdEnvironment(loadAlfworldGame(file));
    env.reset();
    for (const a of ['go to countertop 2', 'take potato 1 from countertop 2', 'go to sinkbasin 1'])
      env.step(a);
    expect(env.step('put potato 1 in/on sinkbasin 1')).toMatchObject({ reward: 0, done: false });
  });

  it('says "Nothing happens." to invalid actions and accepts commands addressed to the player', () => {
    const env = new HouseholdEnvironment(loadAlfworldGame(file));
    env.reset();
    expect(env.step('take potato 1 from countertop 2').observation).toBe(NOTHING_HAPPENS);
    expect(env.step('heat potato 1 with microwave 1').observation).toBe(NOTHING_HAPPENS);
    expect(env.step('bob: go to countertop 2').observation).toBe(NOTHING_HAPPENS);
    // The game's grammar arrives at the location (`{lend.name}`), not the receptacle.
    expect(env.step('alice: go to countertop 2').observation).toMatch(
      /^You arrive at loc \d+\. On the countertop 2, you see a apple 1, .*a potato 1, a potato 2/,
    );
  });

  it("wins with a game file's walkthrough when it has one", () => {
    const plan = planActions(new HouseholdEnvironment(loadAlfworldGame(file)));
    const withWalkthrough = { ...file, solvable: true, walkthrough: plan.map((a) => `alice: ${a}`) };
    const game = loadAlfworldGame(withWalkthrough);
    expect(game.walkthrough).toHaveLength(6);
    const env = new HouseholdEnvironment(game);
    env.reset();
    const last = (game.walkthrough ?? []).map((a) => env.step(a)).at(-1);
    expect(last).toMatchObject({ reward: 1, done: true });
  });

  it('plays another agent when asked', () => {
    const game = loadAlfworldGame(file, { agent: 'charlie' });
    expect(game.agentName).toBe('charlie');
    expect(() => loadAlfworldGame(file, { agent: 'dave' })).toThrow(/alice, bob, charlie/);
  });

  it('names what is missing in a bad file', () => {
    expect(() => loadAlfworldGame('{')).toThrow(/JSON text of a game.tw-pddl/);
    expect(() => loadAlfworldGame({} as AlfworldGameFile)).toThrow(/pddl_problem/);
  });
});

describe('recognizeGoal', () => {
  const goal = (s: string) => recognizeGoal(parseFormula(parseSExpressions(s)[0] ?? []));

  it('reads pick-two from two distinct placed objects and look from a held object and a toggled lamp', () => {
    expect(
      goal(`(exists (?r - receptacle ?o1 - object ?o2 - object) (and (objectType ?o1 CDType) (objectType ?o2 CDType)
        (receptacleType ?r SafeType) (inReceptacle ?o1 ?r) (inReceptacle ?o2 ?r) (not (= ?o1 ?o2))))`),
    ).toEqual({ family: 'pick_two_obj_and_place', objectKind: 'cd', receptacleKind: 'safe', count: 2 });
    expect(
      goal(`(exists (?a - agent ?o - object ?l - object) (and (objectType ?o BookType) (objectType ?l DeskLampType)
        (toggleable ?l) (isToggled ?l) (holds ?a ?o)))`),
    ).toEqual({ family: 'look_at_obj_in_light', objectKind: 'book', lampKind: 'desklamp', count: 1 });
  });
});
