import { ensureBackend } from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import { restoreStepEditor, type StepEditor } from './create-step-editor.js';
import { readStepEditorCheckpoint } from './step-editor-checkpoint.js';
import { checkVocabulary, resolveStepEditorOptions } from './step-editor-options.js';

/**
 * Loads a checkpoint written by `editor.save(dir)`: the same vocabulary, options, policy and reference
 * weights and Adam state, so probabilities, proposals and the next update equal the saved editor's.
 */
export async function loadStepEditor(dir: string): Promise<StepEditor> {
  // The checkpoint's tensors are made on the backend the editor will compute on (and not on tfjs's cpu
  // backend, started by a first tensor with none chosen).
  await ensureBackend();
  const { config, policy, reference, optimizer } = await readStepEditorCheckpoint(dir);
  try {
    const vocabulary = checkVocabulary(config.vocabulary);
    const options = resolveStepEditorOptions(config.options);
    return await restoreStepEditor(vocabulary, options, {
      policy,
      reference,
      optimizer,
      updates: config.updates ?? 0,
    });
  } catch (error) {
    tf.dispose([...Object.values(policy), ...Object.values(reference), ...optimizer.map((o) => o.tensor)]);
    throw error;
  }
}
