import * as tf from '@tensorflow/tfjs';

/** The slice of the wasm backend's class that a JS-side kernel needs (tfjs-backend-wasm 4.22 API). */
interface WasmBackendLike {
  readSync(dataId: tf.DataId): tf.backend_util.BackendValues;
  makeOutput(
    shape: number[],
    dtype: tf.DataType,
    memoryOffset?: number,
    values?: tf.backend_util.BackendValues,
  ): tf.TensorInfo;
}

/**
 * UnsortedSegmentSum is the gradient of `tf.gather` (embedding look-ups, picking the chosen action's
 * log-prob). tfjs-backend-wasm 4.22 ships no such kernel, so the first gradient through a gather throws.
 * This one runs in JS on the values read out of the wasm heap: one pass over the input, O(n), which is
 * what the cpu backend's mask-per-segment version is not.
 */
const unsortedSegmentSumWasm: tf.KernelFunc = ({ inputs, backend, attrs }) => {
  const { x, segmentIds } = inputs as { x: tf.TensorInfo; segmentIds: tf.TensorInfo };
  const numSegments = (attrs as { numSegments: number }).numSegments;
  const wasm = backend as unknown as WasmBackendLike;
  const values = wasm.readSync(x.dataId) as Float32Array | Int32Array;
  const ids = wasm.readSync(segmentIds.dataId) as Int32Array | Float32Array;
  // segmentIds' shape is a prefix of x's shape; each id owns a contiguous block of `inner` values.
  const innerShape = x.shape.slice(segmentIds.shape.length);
  const inner = innerShape.reduce((a, b) => a * b, 1);
  const out =
    x.dtype === 'int32' ? new Int32Array(numSegments * inner) : new Float32Array(numSegments * inner);
  for (let i = 0; i < ids.length; i++) {
    const segment = ids[i] as number;
    // TensorFlow drops out-of-range (negative) ids rather than failing; keep that contract.
    if (segment < 0 || segment >= numSegments) continue;
    const from = i * inner;
    const to = segment * inner;
    for (let j = 0; j < inner; j++) out[to + j] = (out[to + j] as number) + (values[from + j] as number);
  }
  return wasm.makeOutput([numSegments, ...innerShape], x.dtype, undefined, out);
};

const WASM_KERNELS: readonly tf.KernelConfig[] = [
  { kernelName: 'UnsortedSegmentSum', backendName: 'wasm', kernelFunc: unsortedSegmentSumWasm },
];

/**
 * Registers, for the wasm backend, the kernels tensor-ops needs that tfjs-backend-wasm lacks. Kernels that
 * are already registered (a newer tfjs-backend-wasm, or a second call) are left alone.
 * Returns the names it registered.
 */
export function registerWasmKernels(): string[] {
  const added: string[] = [];
  for (const config of WASM_KERNELS) {
    if (tf.getKernel(config.kernelName, config.backendName) !== undefined) continue;
    tf.registerKernel(config);
    added.push(config.kernelName);
  }
  return added;
}
