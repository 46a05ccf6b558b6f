import * as tf from '@tensorflow/tfjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initBackend } from './init-backend.js';
import { quietTfjs } from './quiet-tfjs.js';

afterEach(() => vi.restoreAllMocks());

describe('tfjs start-up messages', () => {
  it('the cpu backend, chosen, prints no "install our node backend" banner, before or after', async () => {
    const warn = vi.spyOn(console, 'warn');
    const info = await initBackend({ env: { SKILLRL_TF_BACKEND: 'cpu' } });
    expect(info.backend).toBe('cpu');
    // The banner comes with the backend's first tensor; initBackend has made it.
    tf.tidy(() => tf.ones([2, 2]).dataSync());
    const printed = warn.mock.calls.map((c) => c.join(' ')).join('\n');
    expect(printed).not.toMatch(/looks like you are running TensorFlow\.js in Node\.js/);
  });

  it('quietTfjs drops only those messages, and only while it runs', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await quietTfjs(async () => {
      console.warn(
        '\n============================\nHi, looks like you are running TensorFlow.js in Node.js. To speed things up dramatically, install our node backend\n============================',
      );
      console.warn('Platform node has already been set. Overwriting the platform with node.');
      console.warn('a warning of the program');
    });
    console.warn('Platform node has already been set.');
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      'a warning of the program',
      'Platform node has already been set.',
    ]);
  });
});
