import { InvalidArgumentError, MissingFieldError, type TaskAdapter } from '@skillrl/core';
import { createStepEditor, type StepEditor } from './create-step-editor.js';
import type { StepEditorOptions } from './step-editor-options.js';

/**
 * The step editor as a config names it (`evolve.generator: step-editor`): it edits skills with the adapter's
 * step vocabulary, and is returned once its tfjs backend is chosen (`ready()`), before the run's first tensor.
 */
export async function createStepEditorFromConfig(
  options: Readonly<Record<string, unknown>>,
  { seed, adapter }: { seed: number; adapter?: TaskAdapter },
): Promise<StepEditor> {
  if (!adapter) throw new MissingFieldError('step-editor', 'adapter');
  if (!adapter.stepVocabulary) {
    throw new InvalidArgumentError(
      'evolve.generator',
      `adapter "${adapter.name}" has no stepVocabulary(); use "llm-editor"`,
    );
  }
  const editor = createStepEditor({
    seed,
    ...options,
    vocabulary: adapter.stepVocabulary(),
  } as StepEditorOptions);
  await editor.ready();
  return editor;
}
