import { InvalidArgumentError, MissingFieldError, type TaskAdapter } from '@skillrl/core';
import household from '@skillrl/task-household';
import { describe, expect, it } from 'vitest';
import { createStepEditorFromConfig } from './step-editor-from-config.js';

describe('createStepEditorFromConfig', () => {
  it("edits with the adapter's step vocabulary and the config's options", async () => {
    const editor = await createStepEditorFromConfig({ hiddenSize: 16 }, { seed: 3, adapter: household });
    try {
      expect(editor.vocabulary).toEqual(household.stepVocabulary?.());
      expect(editor.options.hiddenSize).toBe(16);
    } finally {
      editor.dispose();
    }
  }, 60_000);

  it('needs an adapter, and one with a step vocabulary: typed errors naming what to change', async () => {
    const none = await createStepEditorFromConfig({}, { seed: 1 }).catch((e: unknown) => e);
    expect(MissingFieldError.isInstance(none)).toBe(true);
    expect(none).toMatchObject({ component: 'step-editor', field: 'adapter' });
    const { stepVocabulary: _, ...free } = household;
    const error = await createStepEditorFromConfig(
      {},
      { seed: 1, adapter: { ...free, name: 'qa' } as TaskAdapter },
    ).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'Invalid evolve.generator: adapter "qa" has no stepVocabulary(); use "llm-editor"',
    );
  });
});
