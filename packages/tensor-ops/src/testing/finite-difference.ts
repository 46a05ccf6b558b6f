import * as tf from '@tensorflow/tfjs';

/**
 * Central finite differences of a scalar function of one tensor, element by element, in float32. Test-only:
 * used to check the analytical gradients tfjs builds from our ops.
 */
export function finiteDifference(f: (x: tf.Tensor) => tf.Scalar, x: number[][], h = 1e-3): number[][] {
  const at = (values: number[][]): number => tf.tidy(() => f(tf.tensor2d(values)).dataSync()[0] as number);
  return x.map((row, i) =>
    row.map((_, j) => {
      const plus = x.map((r) => [...r]);
      const minus = x.map((r) => [...r]);
      (plus[i] as number[])[j] = (row[j] as number) + h;
      (minus[i] as number[])[j] = (row[j] as number) - h;
      return (at(plus) - at(minus)) / (2 * h);
    }),
  );
}

/** The analytical gradient of the same function, as nested arrays. */
export function analyticGradient(f: (x: tf.Tensor) => tf.Scalar, x: number[][]): number[][] {
  return tf.tidy(() => tf.grad(f)(tf.tensor2d(x)).arraySync() as number[][]);
}
