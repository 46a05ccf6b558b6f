import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import type { ResolvedStepEditorOptions } from './step-editor-options.js';
import { type StepWeights, WEIGHT_NAMES } from './step-network.js';

export const STEP_EDITOR_FORMAT = 'skillrl.step-editor';
export const STEP_EDITOR_FORMAT_VERSION = 2;
/** The checkpoint's two files inside its directory. */
export const STEP_EDITOR_CONFIG_FILE = 'step-editor.json';
export const STEP_EDITOR_WEIGHTS_FILE = 'step-editor.weights.bin';

type Group = 'policy' | 'reference' | 'optimizer';

export interface TensorEntry {
  group: Group;
  name: string;
  shape: number[];
  dtype: 'float32' | 'int32';
  /** Offset into the weights file, in 4-byte elements. */
  offset: number;
}

/** `step-editor.json`: everything but the numbers, which sit in `step-editor.weights.bin` (little-endian). */
export interface StepEditorCheckpointConfig {
  format: typeof STEP_EDITOR_FORMAT;
  version: number;
  options: ResolvedStepEditorOptions;
  vocabulary: Record<string, string[]>;
  updates: number;
  tensors: TensorEntry[];
}

export interface StepEditorCheckpointData {
  options: ResolvedStepEditorOptions;
  vocabulary: Record<string, string[]>;
  updates: number;
  policy: StepWeights;
  reference: StepWeights;
  /** `optimizer.getWeights()`: the step count first, then the moments. */
  optimizer: { name: string; tensor: tf.Tensor }[];
}

/** Writes to a temporary name and renames, so a crash never leaves a half-written file under the real name. */
async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

/** Writes the checkpoint: weights file first, then the config that points into it. */
export async function writeStepEditorCheckpoint(dir: string, data: StepEditorCheckpointData): Promise<void> {
  if (typeof dir !== 'string' || dir.length === 0) {
    throw new InvalidArgumentError('dir', 'expected a directory path');
  }
  const entries: { group: Group; name: string; tensor: tf.Tensor }[] = [
    ...WEIGHT_NAMES.map((name) => ({ group: 'policy' as const, name, tensor: data.policy[name] })),
    ...WEIGHT_NAMES.map((name) => ({ group: 'reference' as const, name, tensor: data.reference[name] })),
    ...data.optimizer.map((w) => ({ group: 'optimizer' as const, name: w.name, tensor: w.tensor })),
  ];
  const tensors: TensorEntry[] = [];
  const chunks: ArrayBufferView[] = [];
  let offset = 0;
  for (const e of entries) {
    const dtype = e.tensor.dtype === 'int32' ? 'int32' : 'float32';
    const values = await e.tensor.data();
    const typed = dtype === 'int32' ? Int32Array.from(values) : Float32Array.from(values);
    tensors.push({ group: e.group, name: e.name, shape: [...e.tensor.shape], dtype, offset });
    chunks.push(typed);
    offset += typed.length;
  }
  const bytes = new Uint8Array(offset * 4);
  let at = 0;
  for (const c of chunks) {
    bytes.set(new Uint8Array(c.buffer, c.byteOffset, c.byteLength), at);
    at += c.byteLength;
  }
  const config: StepEditorCheckpointConfig = {
    format: STEP_EDITOR_FORMAT,
    version: STEP_EDITOR_FORMAT_VERSION,
    options: data.options,
    vocabulary: data.vocabulary,
    updates: data.updates,
    tensors,
  };
  await mkdir(dir, { recursive: true });
  await writeAtomic(join(dir, STEP_EDITOR_WEIGHTS_FILE), bytes);
  await writeAtomic(join(dir, STEP_EDITOR_CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);
}

export interface ReadCheckpoint {
  config: StepEditorCheckpointConfig;
  policy: StepWeights;
  reference: StepWeights;
  optimizer: { name: string; tensor: tf.Tensor }[];
}

/** Reads a checkpoint into fresh tensors (the caller owns them). */
export async function readStepEditorCheckpoint(dir: string): Promise<ReadCheckpoint> {
  const configPath = join(dir, STEP_EDITOR_CONFIG_FILE);
  let config: StepEditorCheckpointConfig;
  try {
    config = JSON.parse(await readFile(configPath, 'utf8')) as StepEditorCheckpointConfig;
  } catch (cause) {
    throw new InvalidArgumentError('dir', `no readable ${STEP_EDITOR_CONFIG_FILE} in ${dir}`, { cause });
  }
  if (config?.format !== STEP_EDITOR_FORMAT || config.version !== STEP_EDITOR_FORMAT_VERSION) {
    throw new InvalidArgumentError(
      'dir',
      `${configPath} is not a ${STEP_EDITOR_FORMAT} v${STEP_EDITOR_FORMAT_VERSION} checkpoint`,
    );
  }
  const buffer = await readFile(join(dir, STEP_EDITOR_WEIGHTS_FILE));
  // Copied to an aligned buffer: Node's pooled Buffers may start at an offset not divisible by 4.
  const aligned = new Uint8Array(buffer.byteLength);
  aligned.set(buffer);
  const tensorOf = (e: TensorEntry): tf.Tensor => {
    const size = e.shape.reduce((a, b) => a * b, 1);
    if ((e.offset + size) * 4 > aligned.byteLength) {
      throw new InvalidArgumentError(
        'dir',
        `${STEP_EDITOR_WEIGHTS_FILE} is shorter than ${STEP_EDITOR_CONFIG_FILE} says (${e.group}.${e.name})`,
      );
    }
    const values =
      e.dtype === 'int32'
        ? new Int32Array(aligned.buffer, e.offset * 4, size)
        : new Float32Array(aligned.buffer, e.offset * 4, size);
    return tf.tensor(values, e.shape, e.dtype);
  };
  const weights = (group: Group): StepWeights => {
    const out: Partial<StepWeights> = {};
    for (const name of WEIGHT_NAMES) {
      const entry = config.tensors.find((e) => e.group === group && e.name === name);
      if (entry === undefined) {
        throw new InvalidArgumentError('dir', `${STEP_EDITOR_CONFIG_FILE} lists no ${group}.${name} tensor`);
      }
      out[name] = tensorOf(entry);
    }
    return out as StepWeights;
  };
  return {
    config,
    policy: weights('policy'),
    reference: weights('reference'),
    optimizer: config.tensors
      .filter((e) => e.group === 'optimizer')
      .map((e) => ({ name: e.name, tensor: tensorOf(e) })),
  };
}
