import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SkillGenerationContext, Task } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import household from '@skillrl/task-household';
import { initBackend } from '@skillrl/tensor-ops';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStepEditor } from './create-step-editor.js';
import { loadStepEditor } from './load-step-editor.js';
import { STEP_EDITOR_CONFIG_FILE, type StepEditorCheckpointConfig } from './step-editor-checkpoint.js';

const vocabulary = household.stepVocabulary?.() ?? {};
const tasks = household.load({ split: 'train', limit: 6, seed: 3 }) as Task[];
// Each task's own hand-written skill as the current one, so the checkpoint is tested on edits.
const ownSkill = (task: Task) =>
  household
    .skills()
    .filter((s) => s.families?.includes(task.family))
    .sort((a, b) => (a.families?.length ?? 0) - (b.families?.length ?? 0))[0];
const ctx = (task: Task, generation = 1): SkillGenerationContext => {
  const currentSkill = ownSkill(task);
  return { task, generation, history: [], seed: 4, ...(currentSkill && { currentSkill }) };
};

describe('step editor checkpoints', () => {
  let dir: string;
  beforeAll(async () => {
    await initBackend({ prefer: 'wasm', env: {} });
    dir = await mkdtemp(join(tmpdir(), 'step-editor-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reloads to identical probabilities, proposals and next update', async () => {
    const editor = createStepEditor({
      vocabulary,
      seed: 'ckpt',
      hiddenSize: 32,
      maxSteps: 8,
      temperature: 0.9,
    });
    // Two updates, so the policy differs from the reference and Adam has moments to save.
    for (let g = 1; g <= 2; g++) {
      const group = await editor.propose(ctx(tasks[3] as Task, g), 6);
      await editor.update(group, [1, -1, 0.5, -0.5, 0, 0.25]);
    }
    const before = tf.memory().numTensors;
    await editor.save(dir);
    expect(tf.memory().numTensors).toBe(before); // saving leaks nothing
    const loaded = await loadStepEditor(dir);
    expect(loaded.options).toEqual(editor.options);
    expect(loaded.vocabulary).toEqual(vocabulary);
    expect(loaded.updates).toBe(2);

    for (const task of tasks) {
      const a = await editor.nextStepDistribution(ctx(task), []);
      const b = await loaded.nextStepDistribution(ctx(task), []);
      expect(b).toEqual(a);
    }
    const proposedA = await editor.propose(ctx(tasks[3] as Task, 3), 6);
    const proposedB = await loaded.propose(ctx(tasks[3] as Task, 3), 6);
    expect(proposedB.map((c) => c.text)).toEqual(proposedA.map((c) => c.text));
    expect(proposedB.map((c) => c.logProbs)).toEqual(proposedA.map((c) => c.logProbs));

    // The same update on both: equal only if the Adam moments and the reference came back too.
    const mA = await editor.update(proposedA, [1, -1, 0, 0, 0.5, -0.5]);
    const mB = await loaded.update(proposedB, [1, -1, 0, 0, 0.5, -0.5]);
    expect(mB.kl).toBe(mA.kl);
    expect(mB.loss).toBe(mA.loss);
    expect(await loaded.nextStepDistribution(ctx(tasks[3] as Task))).toEqual(
      await editor.nextStepDistribution(ctx(tasks[3] as Task)),
    );
    editor.dispose();
    loaded.dispose();
  });

  it('stores options and vocabulary as JSON beside the weights', async () => {
    const editor = createStepEditor({ vocabulary, seed: 1, hiddenSize: 8 });
    await editor.save(dir);
    editor.dispose();
    const config = JSON.parse(
      await readFile(join(dir, STEP_EDITOR_CONFIG_FILE), 'utf8'),
    ) as StepEditorCheckpointConfig;
    expect(config.format).toBe('skillrl.step-editor');
    expect(config.vocabulary).toEqual(vocabulary);
    expect(config.options.hiddenSize).toBe(8);
    // Policy and reference, four tensors each, Adam's step count (no moments before the first update) and
    // its running β powers.
    expect(config.tensors.map((t) => `${t.group}.${t.name}`)).toEqual([
      'policy.w1',
      'policy.b1',
      'policy.w2',
      'policy.b2',
      'reference.w1',
      'reference.b1',
      'reference.w2',
      'reference.b2',
      'optimizer.iter',
      'optimizer.accBeta1',
      'optimizer.accBeta2',
    ]);
  });

  it('refuses a directory without a checkpoint, or with another format', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'step-editor-empty-'));
    await expect(loadStepEditor(empty)).rejects.toSatisfy(
      (e: unknown) => InvalidArgumentError.isInstance(e) && e.argument === 'dir',
    );
    await writeFile(join(empty, STEP_EDITOR_CONFIG_FILE), JSON.stringify({ format: 'other', version: 1 }));
    await expect(loadStepEditor(empty)).rejects.toThrow(/not a skillrl.step-editor v2 checkpoint/);
    await rm(empty, { recursive: true, force: true });
  });
});
