import { MissingFieldError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { household } from '../testing/household-fixture.js';
import { vocabularyFromAdapter } from '../text/vocabulary-from-adapter.js';
import { createTfjsTrainerFromConfig } from '../train/tfjs-trainer-from-config.js';
import { createSkillReadingAgentFromConfig } from './skill-reading-agent-from-config.js';

describe('the skill-reading agent and the tfjs trainer as a config names them', () => {
  it('the agent needs the adapter: a MissingFieldError naming it', async () => {
    const error = await createSkillReadingAgentFromConfig({}, { seed: 1 }).catch((e: unknown) => e);
    expect(MissingFieldError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ component: 'skill-reading agent', field: 'adapter' });
  });

  it("reads the adapter's words and takes the config's options", async () => {
    const agent = await createSkillReadingAgentFromConfig(
      { temperature: 0.5 },
      { seed: 4, adapter: household },
    );
    expect(agent.vocabulary.size).toBe((await vocabularyFromAdapter(household)).size);
    await expect(
      createSkillReadingAgentFromConfig({ temperature: 0 }, { seed: 4, adapter: household }),
    ).rejects.toThrow('options.temperature');
  }, 60_000);

  it('the trainer needs the agent it trains, and trains the one it is given', async () => {
    expect(() => createTfjsTrainerFromConfig({}, {})).toThrow(
      expect.objectContaining({ component: 'tfjs trainer', field: 'agent' }),
    );
    const agent = await createSkillReadingAgentFromConfig({}, { seed: 1, adapter: household });
    const trainer = createTfjsTrainerFromConfig({ lr: 0.02 }, { agent });
    expect(typeof trainer.update).toBe('function');
  }, 60_000);
});
