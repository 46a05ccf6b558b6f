import { InvalidArgumentError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { initBackend } from './init-backend.js';

// These run on a machine where tfjs-node and tfjs-node-gpu are installed without their native addon
// (their install script cannot download libtensorflow here), or not installed at all.
const nativeSkipped = /native addon|package not installed/;

describe('initBackend', () => {
  it('skips the absent native packages with a reason each and picks wasm', async () => {
    const info = await initBackend({ env: {} });
    expect(info.backend).toBe('wasm');
    expect(info.tfBackend).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    expect(info.source).toBe('default');
    expect(info.tried.map((t) => [t.name, t.ok])).toEqual([
      ['tfjs-node-gpu', false],
      ['tfjs-node', false],
      ['wasm', true],
    ]);
    expect(info.tried[0]?.reason).toMatch(nativeSkipped);
    expect(info.tried[1]?.reason).toMatch(nativeSkipped);
  });

  it('is idempotent: the same choice returns the same answer without re-initialising', async () => {
    const first = await initBackend({ env: {} });
    const second = await initBackend({ env: {} });
    expect(second).toBe(first);
  });

  it('SKILLRL_TF_BACKEND=cpu forces the cpu backend', async () => {
    const info = await initBackend({ env: { SKILLRL_TF_BACKEND: 'cpu' } });
    expect(info).toMatchObject({ backend: 'cpu', tfBackend: 'cpu', source: 'env' });
    expect(info.tried).toEqual([{ name: 'cpu', ok: true, reason: 'initialised as tfjs backend "cpu"' }]);
    expect(tf.getBackend()).toBe('cpu');
  });

  it('the environment wins over options.prefer', async () => {
    const info = await initBackend({ prefer: 'wasm', env: { SKILLRL_TF_BACKEND: 'cpu' } });
    expect(info.backend).toBe('cpu');
  });

  it('a forced native backend that is absent falls back instead of crashing', async () => {
    const info = await initBackend({ env: { SKILLRL_TF_BACKEND: 'tfjs-node' } });
    expect(info.backend).toBe('wasm');
    expect(info.tried.map((t) => t.name)).toEqual(['tfjs-node', 'tfjs-node-gpu', 'wasm']);
    expect(info.tried[0]?.reason).toMatch(nativeSkipped);
  });

  it('options.prefer goes first; fallback: false tries nothing else', async () => {
    const cpu = await initBackend({ prefer: ['cpu', 'wasm'], env: {} });
    expect(cpu).toMatchObject({ backend: 'cpu', source: 'prefer' });
    await expect(initBackend({ prefer: 'tfjs-node', fallback: false, env: {} })).rejects.toThrow(
      /No tfjs backend could be initialised \(tfjs-node: /,
    );
    // A switch back re-activates wasm even though the earlier answer for this choice was cached.
    const wasm = await initBackend({ env: {} });
    expect(wasm.backend).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
  });

  it('rejects an unknown name in SKILLRL_TF_BACKEND or prefer with a typed error', async () => {
    await expect(initBackend({ env: { SKILLRL_TF_BACKEND: 'webgpu' } })).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(initBackend({ env: { SKILLRL_TF_BACKEND: 'webgpu' } })).rejects.toThrow(
      /SKILLRL_TF_BACKEND/,
    );
    await expect(initBackend({ prefer: 'gpu' as never, env: {} })).rejects.toThrow(/options\.prefer/);
  });
});
