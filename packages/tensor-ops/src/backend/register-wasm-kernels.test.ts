import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from './init-backend.js';
import { registerWasmKernels } from './register-wasm-kernels.js';

describe('registerWasmKernels', () => {
  beforeAll(async () => {
    await initBackend({ prefer: 'wasm', env: {} });
  });

  it('makes the gradient of tf.gather work on wasm, with the right values', () => {
    expect(tf.getBackend()).toBe('wasm');
    const table = tf.variable(
      tf.tensor2d([
        [1, 2],
        [3, 4],
        [5, 6],
      ]),
    );
    const ids = tf.tensor1d([2, 0, 2], 'int32');
    // d/dtable Σ gather(table, [2, 0, 2]) counts how often each row is picked: row 0 once, row 1 never,
    // row 2 twice.
    const { grads } = tf.variableGrads(() => tf.sum(tf.gather(table, ids)) as tf.Scalar, [table]);
    expect(grads[table.name]?.arraySync()).toEqual([
      [1, 1],
      [0, 0],
      [2, 2],
    ]);
    tf.dispose([table, ids, ...Object.values(grads)]);
  });

  it('matches the cpu backend on a weighted gather with out-of-range ids dropped', async () => {
    const x = [
      [1.5, -2],
      [0.25, 4],
      [3, 3],
      [-1, 0.5],
    ];
    const ids = [1, -1, 1, 0];
    const run = () =>
      tf.tidy(() => tf.unsortedSegmentSum(tf.tensor2d(x), tf.tensor1d(ids, 'int32'), 3).arraySync());
    const onWasm = run();
    await tf.setBackend('cpu');
    const onCpu = run();
    await tf.setBackend('wasm');
    // Segment 1 = rows 0 and 2: [4.5, 1]; segment 0 = row 3; segment 2 gets nothing; id −1 is dropped.
    expect(onWasm).toEqual([
      [-1, 0.5],
      [4.5, 1],
      [0, 0],
    ]);
    expect(onWasm).toEqual(onCpu);
  });

  it('registers nothing twice', () => {
    expect(registerWasmKernels()).toEqual([]);
  });
});
