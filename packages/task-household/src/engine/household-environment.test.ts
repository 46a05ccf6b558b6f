import { describe, expect, it } from 'vitest';
import { alfredGrammar } from './alfred-twl2.js';
import type { GameObject, HouseholdGame } from './game.js';
import { HouseholdEnvironment, NOTHING_HAPPENS } from './household-environment.js';

const thing = (name: string, flags: Partial<GameObject> = {}): GameObject => ({
  name,
  kind: name.split(' ')[0] as string,
  pickupable: true,
  heatable: false,
  coolable: false,
  cleanable: false,
  toggleable: false,
  sliceable: false,
  receptacleObject: false,
  ...flags,
});

/** A six-receptacle kitchen corner: heat the apple and put it in the fridge. */
function kitchen(): HouseholdGame {
  const kinds = ['countertop', 'fridge', 'microwave', 'sinkbasin', 'cabinet', 'sidetable'];
  return {
    locations: ['middle', 'loc 1', 'loc 2', 'loc 3', 'loc 4', 'loc 5', 'loc 6'],
    receptacles: kinds.map((kind, i) => ({
      name: `${kind} 1`,
      kind,
      openable: ['fridge', 'microwave', 'cabinet'].includes(kind),
      location: i + 1,
    })),
    objects: [
      thing('apple 1', { heatable: true, coolable: true, cleanable: true }),
      thing('egg 1', { heatable: true }),
      thing('mug 1', { receptacleObject: true }),
      thing('desklamp 1', { pickupable: false, toggleable: true }),
    ],
    canContain: new Set([
      'countertop|apple',
      'fridge|apple',
      'microwave|apple',
      'sinkbasin|apple',
      'countertop|egg',
      'fridge|egg',
      'cabinet|mug',
    ]),
    init: { agentLocation: 0, objectIn: [0, 1, 4, 5], objectLocation: [1, 2, 5, 6] },
    goal: {
      family: 'pick_heat_then_place_in_recep',
      objectKind: 'apple',
      receptacleKind: 'fridge',
      state: 'hot',
      count: 1,
    },
    taskText: 'put a hot apple in fridge.',
    grammar: alfredGrammar(),
    agentName: 'agent',
  };
}

describe('HouseholdEnvironment', () => {
  it("opens with ALFWorld's welcome, the room's receptacles by type, and the task", () => {
    const env = new HouseholdEnvironment(kitchen());
    expect(env.reset()).toBe(
      '-= Welcome to TextWorld, ALFRED! =-\n\nYou are in the middle of a room. Looking quickly around you, you see a cabinet 1, a countertop 1, a fridge 1, a microwave 1, a sidetable 1, and a sinkbasin 1.\n\nYour task is to: put a hot apple in fridge.',
    );
    expect(env.admissibleActions()).toEqual([
      'go to countertop 1',
      'go to fridge 1',
      'go to microwave 1',
      'go to sinkbasin 1',
      'go to cabinet 1',
      'go to sidetable 1',
      'inventory',
      'look',
    ]);
  });

  it('plays a heat task with the grammar texts and rewards the win', () => {
    const env = new HouseholdEnvironment(kitchen());
    env.reset();
    const said = (action: string): string => env.step(action).observation;
    expect(said('go to fridge 1')).toBe('You arrive at fridge 1. The fridge 1 is closed.');
    expect(said('take egg 1 from fridge 1')).toBe(NOTHING_HAPPENS);
    expect(said('open fridge 1')).toBe(
      'You open the fridge 1. The fridge 1 is open. In it, you see a egg 1.',
    );
    expect(said('go to countertop 1')).toBe(
      'You arrive at countertop 1. On the countertop 1, you see a apple 1.',
    );
    expect(said('take apple 1 from countertop 1')).toBe('You pick up the apple 1 from the countertop 1.');
    expect(said('inventory')).toBe('You are carrying: a apple 1.');
    expect(said('examine apple 1')).toBe("There's nothing special about apple 1.");
    expect(said('heat apple 1 with microwave 1')).toBe(NOTHING_HAPPENS); // not at the microwave
    expect(said('go to microwave 1')).toBe('You arrive at microwave 1. The microwave 1 is closed.');
    expect(env.admissibleActions()).toContain('heat apple 1 with microwave 1');
    expect(said('heat apple 1 with microwave 1')).toBe('You heat the apple 1 using the microwave 1.');
    expect(said('examine apple 1')).toBe('This is a hot apple 1.');
    expect(said('go to fridge 1')).toBe(
      'You arrive at fridge 1. The fridge 1 is open. In it, you see a egg 1.',
    );
    const admissible = env.admissibleActions();
    expect(admissible).toContain('move apple 1 to fridge 1');
    expect(admissible).not.toContain('put apple 1 in/on fridge 1');
    // The older spelling is accepted too; the feedback is the grammar's.
    const last = env.step('put apple 1 in/on fridge 1');
    expect(last).toEqual({
      observation: 'You move the apple 1 to the fridge 1.',
      reward: 1,
      done: true,
      info: { won: true, steps: 13, valid: true },
    });
  });

  it('cooling clears hot and heating clears cool', () => {
    const env = new HouseholdEnvironment(kitchen());
    env.reset();
    for (const a of [
      'go to countertop 1',
      'take apple 1 from countertop 1',
      'go to microwave 1',
      'heat apple 1 with microwave 1',
    ]) {
      env.step(a);
    }
    expect(env.hot[0]).toBe(1);
    env.step('go to fridge 1');
    expect(env.step('cool apple 1 with fridge 1').observation).toBe(
      'You cool the apple 1 using the fridge 1.',
    );
    expect([env.hot[0], env.cool[0]]).toEqual([0, 1]);
    expect(env.step('examine apple 1').observation).toBe('This is a cold apple 1.');
    // Cold, so placing it in the fridge does not win a heat task.
    env.step('open fridge 1');
    expect(env.step('move apple 1 to fridge 1')).toMatchObject({ reward: 0, done: false });
  });

  it('says "Nothing happens." to anything not admissible, and accepts case and spacing variants', () => {
    const env = new HouseholdEnvironment(kitchen());
    env.reset();
    for (const bad of [
      'jump',
      '',
      'go to fridge 9',
      'take mug 1 from cabinet 1',
      'use desklamp 1',
      'slice apple 1 with knife 1',
    ]) {
      const r = env.step(bad);
      expect(r.observation).toBe(NOTHING_HAPPENS);
      expect(r.info?.valid).toBe(false);
    }
    expect(env.step('  Go To   Cabinet 1 ').observation).toBe(
      'You arrive at cabinet 1. The cabinet 1 is closed.',
    );
    expect(env.step('take mug 1 from cabinet 1').observation).toBe(NOTHING_HAPPENS); // closed
    env.step('open cabinet 1');
    env.step('take mug 1 from cabinet 1');
    expect(env.step('examine mug 1').observation).toBe('This is a normal mug 1. In it, you see nothing.');
    // The mug fits only in cabinets: the countertop does not accept it.
    env.step('go to countertop 1');
    expect(env.step('move mug 1 to countertop 1').observation).toBe(NOTHING_HAPPENS);
  });

  it('turns on the desk lamp and describes the spot the agent faces', () => {
    const env = new HouseholdEnvironment(kitchen());
    env.reset();
    env.step('go to sidetable 1');
    expect(env.step('look').observation).toBe('You are facing the sidetable 1. Next to it, you see nothing.');
    expect(env.step('use desklamp 1').observation).toBe('You turn on the desklamp 1.');
    expect(env.step('examine desklamp 1').observation).toBe('This desklamp 1 is on.');
    expect(env.step('inventory').observation).toBe('You are not carrying anything.');
  });

  it('ends the episode at 50 steps without reward', () => {
    const env = new HouseholdEnvironment(kitchen());
    env.reset();
    for (let i = 1; i < 50; i++) expect(env.step('look').done).toBe(false);
    expect(env.step('look')).toMatchObject({ reward: 0, done: true, info: { won: false, steps: 50 } });
    expect(env.step('look')).toMatchObject({ observation: NOTHING_HAPPENS, done: true });
    // reset starts over.
    env.reset();
    expect(env.steps).toBe(0);
    expect(env.step('look').done).toBe(false);
  });

  it('lists both placing spellings when asked', () => {
    const env = new HouseholdEnvironment(kitchen(), { placeSpelling: 'both' });
    env.reset();
    env.step('go to countertop 1');
    env.step('take apple 1 from countertop 1');
    env.step('go to sinkbasin 1');
    expect(env.admissibleActions()).toEqual(
      expect.arrayContaining([
        'put apple 1 in/on sinkbasin 1',
        'move apple 1 to sinkbasin 1',
        'clean apple 1 with sinkbasin 1',
      ]),
    );
  });

  it('clones its state: stepping a copy leaves the original alone', () => {
    const env = new HouseholdEnvironment(kitchen());
    env.reset();
    env.step('go to countertop 1');
    const copy = env.clone();
    copy.step('take apple 1 from countertop 1');
    expect(copy.holding).toBe(0);
    expect(env.holding).toBe(-1);
    expect(env.objectIn[0]).toBe(0);
    expect(env.admissibleActions()).toContain('take apple 1 from countertop 1');
  });

  it('rejects a step limit below 1', () => {
    expect(() => new HouseholdEnvironment(kitchen(), { maxSteps: 0 })).toThrow(/options.maxSteps/);
  });
});
