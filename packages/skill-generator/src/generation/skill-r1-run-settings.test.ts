import { describe, expect, it } from 'vitest';
import { skillR1RunSettings } from './skill-r1-run-settings.js';

describe('skillR1RunSettings', () => {
  it('applies the defaults to an empty section', () => {
    expect(skillR1RunSettings()).toMatchObject({
      variant: 'skill-r1',
      mode: 'inference',
      generations: 3,
      candidates: 4,
      episodes: 2,
      lambda: 1,
      interGeneration: true,
      finalEpisodes: 0,
      finalPaired: false,
      useS0: true,
      proposalRetries: 2,
      edits: true,
      trainsEditor: false,
      label: 'evolve:inference',
      estimator: 'skill-r1',
    });
    expect(skillR1RunSettings({ mode: 'grpo' })).toMatchObject({ trainsEditor: true, label: 'evolve:grpo' });
  });

  it('fixes what defines each baseline, whatever the config says', () => {
    const grpo = skillR1RunSettings({ variant: 'vanilla-grpo', generations: 5, lambda: 0.5 });
    expect(grpo).toMatchObject({ generations: 1, lambda: 0, interGeneration: false, useS0: true });
    const none = skillR1RunSettings({ variant: 'no-skill', generations: 5, finalEpisodes: 4 });
    expect(none).toMatchObject({ generations: 0, useS0: false, finalPaired: false, finalEpisodes: 4 });
    expect(skillR1RunSettings({ variant: 'no-skill', mode: 'grpo' })).toMatchObject({
      edits: false,
      trainsEditor: false,
      label: 'evolve:no-skill',
    });
  });

  it('pairs the final evaluation only when it runs, unless turned off', () => {
    expect(skillR1RunSettings({ finalEpisodes: 2 }).finalPaired).toBe(true);
    expect(skillR1RunSettings({ finalEpisodes: 2, finalPaired: false }).finalPaired).toBe(false);
    expect(skillR1RunSettings({ initialSkill: 'none' }).useS0).toBe(false);
    expect(skillR1RunSettings({ generations: 0, candidates: 1 })).toMatchObject({
      generations: 0,
      candidates: 1,
    });
  });
});
