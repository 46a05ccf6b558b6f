import type { GenerationRecord, Skill } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { renderHistory } from './render-history.js';
import { summarizeHistory } from './summarize-history.js';

const skill = (name: string, body: string): Skill => ({ name, description: `${name} skill`, body });
const A = skill('heat-a', '1. Take the object.\n2. Heat the object with the microwave.\n');
const B = skill('heat-b', '1. Go to the microwave.\n');

const history: GenerationRecord[] = [
  { generation: 1, skill: B, reward: 0 },
  {
    generation: 2,
    skill: A,
    reward: 0.5,
    candidates: [
      { skill: A, reward: 0.5 },
      { skill: B, reward: 0.25 },
    ],
    failures: [
      {
        trajectoryId: 't1',
        reward: 0,
        passed: false,
        failingStep: 3,
        lastObservation: 'The microwave 1 is closed.',
        reason: 'goal not reached',
      },
    ],
    successes: [{ trajectoryId: 't2', reward: 1, passed: true }],
  },
];

describe('renderHistory', () => {
  it('renders rewards, earlier skills and episodes as markdown', () => {
    const text = renderHistory(summarizeHistory(history), { maxSkills: 2 });
    expect(text).toBe(
      [
        '## History (generations 1–2 of 2)',
        '',
        'Reward of the carried skill: g1 0.00, g2 0.50 (trend +0.50).',
        'Best so far: 0.50 by `heat-a` (generation 2).',
        '',
        '### Earlier skills (2 of 3)',
        '',
        '- g2 `heat-a`: reward 0.50 (carried)',
        '    1. Take the object.',
        '    2. Heat the object with the microwave.',
        '- g2 `heat-b`: reward 0.25',
        '    1. Go to the microwave.',
        '',
        '### Failed episodes (1 of 2)',
        '',
        'First failing step: earliest 3, mean 3.00.',
        'Verifier reasons: "goal not reached" ×1.',
        '- g2 reward 0.00; first failing step 3; verifier: "goal not reached"; last observation: "The microwave 1 is closed."',
        '',
        '### Successful episodes (1 of 2)',
        '',
        '- g2 reward 1.00',
        '',
      ].join('\n'),
    );
  });

  it('leaves bodies out on request and says when there is no history', () => {
    const text = renderHistory(summarizeHistory(history), { includeSkillBodies: false, maxSkills: 1 });
    expect(text).toContain('- g2 `heat-a`: reward 0.50 (carried)\n\n### Failed');
    expect(renderHistory(summarizeHistory([]))).toBe(
      'No earlier generations: this is the first skill for the task.\n',
    );
    expect(() => renderHistory(summarizeHistory(history), { maxSkills: -1 })).toThrow(/options.maxSkills/);
  });
});
