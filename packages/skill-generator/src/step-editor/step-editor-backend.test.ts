import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task } from '@skillrl/core';
import household from '@skillrl/task-household';
import * as tf from '@tensorflow/tfjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStepEditor } from './create-step-editor.js';
import { loadStepEditor } from './load-step-editor.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const vocabulary = household.stepVocabulary?.() ?? {};
const task = (household.load({ split: 'train', limit: 4, seed: 7 }) as Task[])[3] as Task;
const TFJS_BANNER = /TensorFlow\.js in Node\.js/;

// Runs first in its own worker: nothing in it has touched tfjs before the editor is created.
describe('the step editor and the tfjs backend', () => {
  it('creating the editor alone chooses the backend (wasm) before its first tensor; no banner', async () => {
    vi.stubEnv('SKILLRL_TF_BACKEND', '');
    const warn = vi.spyOn(console, 'warn');
    const editor = createStepEditor({ vocabulary, seed: 1, hiddenSize: 8 });
    const info = await editor.ready();
    expect(info.backend).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    const candidates = await editor.propose({ task, generation: 1, history: [], seed: 3 }, 4);
    await editor.update(candidates, [1, -1, 0.5, -0.5]);
    expect(warn.mock.calls.map((c) => c.join(' ')).join('\n')).not.toMatch(TFJS_BANNER);
    // A checkpoint loads onto the same backend, and scores what the saved editor proposed identically.
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-editor-backend-'));
    await editor.save(dir);
    const loaded = await loadStepEditor(dir);
    expect(await loaded.ready()).toBe(info);
    expect(await loaded.score(candidates)).toEqual(await editor.score(candidates));
    editor.dispose();
    loaded.dispose();
  });

  it('disposed before its backend is ready, it makes no tensors and refuses work', async () => {
    const before = tf.memory().numTensors;
    const editor = createStepEditor({ vocabulary, seed: 2, hiddenSize: 8 });
    editor.dispose();
    await editor.ready();
    expect(tf.memory().numTensors).toBe(before);
    await expect(editor.propose({ task, generation: 1, history: [] }, 1)).rejects.toThrow(/disposed/);
  });
});
