import { formatSkill, parseSkill, validateSkill } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildStepIndex, normalizeStep } from './step-index.js';
import { readNumberedSteps, renderStepSkill, stepSkillName } from './step-skill.js';

describe('step skills', () => {
  it('renders numbered steps with a name and description from the family', () => {
    const skill = renderStepSkill('pick_cool_then_place_in_recep', [
      'take the object',
      'cool the object with the fridge',
    ]);
    expect(skill).toEqual({
      name: 'pick-cool-then-place-in-recep-steps',
      description:
        'An ordered procedure (2 steps) for pick_cool_then_place_in_recep tasks. Use it on pick_cool_then_place_in_recep tasks: follow the steps in order.',
      body: '# Procedure for pick_cool_then_place_in_recep\n\n1. Take the object.\n2. Cool the object with the fridge.\n',
      families: ['pick_cool_then_place_in_recep'],
    });
    expect(parseSkill(formatSkill(skill))).toEqual(skill);
    expect(readNumberedSteps(skill.body)).toEqual(['Take the object.', 'Cool the object with the fridge.']);
  });

  it('names are valid Agent Skills names for any family string (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (family) => {
        const name = stepSkillName(family);
        expect(validateSkill({ name, description: 'd', body: '' }).ok).toBe(true);
      }),
    );
    expect(stepSkillName('GAIA Level 3')).toBe('gaia-level-3-steps');
    expect(stepSkillName('***')).toBe('task-steps');
  });

  it('reads rendered steps back to their vocabulary ids (property)', () => {
    const index = buildStepIndex({
      a: ['go to the sinkbasin', 'clean the object with the sinkbasin', 'put it down'],
      b: ['Put it down.', 'buy it'],
    });
    // "Put it down." is the same phrase as "put it down" once normalised: one id.
    expect(index.steps).toEqual([
      'go to the sinkbasin',
      'clean the object with the sinkbasin',
      'put it down',
      'buy it',
    ]);
    expect(index.familySteps.get('b')).toEqual([2, 3]);
    expect(index.end).toBe(4);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 8 }), (ids) => {
        const skill = renderStepSkill(
          'a',
          ids.map((i) => index.steps[i] as string),
        );
        expect(readNumberedSteps(skill.body).map((s) => index.idOf(s))).toEqual(ids);
      }),
    );
    expect(normalizeStep('  Open  the Drawer. ')).toBe('open the drawer');
    expect(readNumberedSteps('intro\n1) first\n  2. second  \n- bullet\n10. tenth')).toEqual([
      'first',
      'second',
      'tenth',
    ]);
  });
});
