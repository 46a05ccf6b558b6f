import * as tf from '@tensorflow/tfjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ensureBackend } from './ensure-backend.js';
import { initBackend } from './init-backend.js';

afterEach(() => vi.restoreAllMocks());

// The first test runs before anything in this file (its own worker) has chosen a backend.
describe('ensureBackend', () => {
  it('with nothing chosen yet, calls at once choose once (wasm) and share the answer, with no banner', async () => {
    const warn = vi.spyOn(console, 'warn');
    const [a, b] = await Promise.all([ensureBackend({ env: {} }), ensureBackend({ env: {} })]);
    expect(a.backend).toBe('wasm');
    expect(b).toBe(a);
    expect(tf.getBackend()).toBe('wasm');
    // A first tensor now is wasm's: tfjs never started its cpu backend, whose first tensor prints the banner.
    tf.tidy(() => tf.ones([2, 2]).dataSync());
    const printed = warn.mock.calls.map((c) => c.join(' ')).join('\n');
    expect(printed).not.toMatch(/TensorFlow\.js in Node\.js/);
    expect(await ensureBackend({ env: {} })).toBe(a);
  });

  it("keeps the program's own choice instead of choosing again", async () => {
    const cpu = await initBackend({ prefer: 'cpu', env: {} });
    expect(await ensureBackend({ env: {} })).toBe(cpu);
    expect(tf.getBackend()).toBe('cpu');
  });

  it('chooses again when the chosen backend is no longer the active one', async () => {
    const wasm = await initBackend({ env: {} });
    expect(wasm.backend).toBe('wasm');
    await tf.setBackend('cpu');
    const again = await ensureBackend({ env: {} });
    expect(again.backend).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
  });
});
