import * as tf from '@tensorflow/tfjs';

// tfjs has no `detach()`; a custom gradient that returns zeros is the same thing inside a tape.
const detach = tf.customGrad((x, _save) => ({
  value: (x as tf.Tensor).clone(),
  gradFunc: (dy: tf.Tensor) => tf.zerosLike(dy),
}));

/** The same values, with no gradient flowing back through them (PyTorch's `.detach()`). */
export function stopGradient<T extends tf.Tensor>(x: T): T {
  return detach(x) as T;
}

/**
 * The value of `value` with the gradient of `gradSource`: `gradSource − sg(gradSource) + sg(value)`.
 * `gradSource − sg(gradSource)` is exactly 0 in floating point, so the value is `value` to the bit.
 */
export function straightThrough<T extends tf.Tensor>(value: T, gradSource: T): T {
  return tf.tidy(() => tf.add(tf.sub(gradSource, stopGradient(gradSource)), stopGradient(value)) as T);
}
