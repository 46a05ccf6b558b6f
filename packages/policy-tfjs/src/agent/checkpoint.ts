import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidArgumentError, type Seed, SkillrlError, type Task } from '@skillrl/core';
import { type AgentConfig, resolveAgentConfig } from '../model/agent-config.js';
import {
  type AgentParameters,
  PARAMETER_NAMES,
  type ParameterName,
  parameterShapes,
  size,
} from '../model/parameters.js';
import type { GoalBindings } from '../skill/skill-clauses.js';
import { type VocabularyJson, vocabularyFromJson } from '../text/vocabulary.js';
import { createSkillReadingAgent, type SkillReadingAgent } from './create-skill-reading-agent.js';

export const CHECKPOINT_FORMAT = 'skillrl-policy-tfjs';

/** `config.json` of a checkpoint directory. */
export interface CheckpointManifest {
  format: typeof CHECKPOINT_FORMAT;
  /** 2: the network with the hidden layer and the memory; 1 (the bilinear scorer) is no longer loadable. */
  version: 2;
  config: AgentConfig;
  vocabulary: VocabularyJson;
  sampling: { temperature: number; greedy: boolean };
  /** Where each weight lies in `weights.bin`, in float32 elements. */
  weights: { name: ParameterName; shape: number[]; offset: number; length: number }[];
}

async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

export async function saveSkillReadingAgent(agent: SkillReadingAgent, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const shapes = parameterShapes(agent.config, agent.vocabulary.size);
  const weights: CheckpointManifest['weights'] = [];
  let offset = 0;
  for (const name of PARAMETER_NAMES) {
    const length = size(shapes[name]);
    weights.push({ name, shape: shapes[name], offset, length });
    offset += length;
  }
  const flat = new Float32Array(offset);
  for (const w of weights) flat.set(agent.parameters[w.name], w.offset);
  const bytes = new Uint8Array(flat.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < flat.length; i++) view.setFloat32(i * 4, flat[i] as number, true);
  const manifest: CheckpointManifest = {
    format: CHECKPOINT_FORMAT,
    version: 2,
    config: agent.config,
    vocabulary: agent.vocabulary.toJSON(),
    sampling: { temperature: agent.temperature, greedy: agent.greedy },
    weights,
  };
  // Weights first: a config.json on disk always describes a complete weights.bin.
  await writeAtomic(join(dir, 'weights.bin'), bytes);
  await writeAtomic(join(dir, 'config.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

export interface LoadAgentOptions {
  seed?: Seed;
  temperature?: number;
  greedy?: boolean;
  /** Functions are not saved: pass them again if the agent was created with custom ones. */
  bindings?: (task: Task) => GoalBindings;
  expandActions?: (actions: readonly string[], task: Task) => string[];
}

/** Reads a directory written by `agent.save(dir)`; the agent's action probabilities are the saved ones. */
export async function loadSkillReadingAgent(
  dir: string,
  options: LoadAgentOptions = {},
): Promise<SkillReadingAgent> {
  let manifest: CheckpointManifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as CheckpointManifest;
  } catch (cause) {
    throw new InvalidArgumentError(
      'dir',
      `no readable config.json in ${dir}; save one with agent.save(dir)`,
      {
        cause,
      },
    );
  }
  if (manifest.format === CHECKPOINT_FORMAT && (manifest.version as number) === 1) {
    throw new InvalidArgumentError(
      'dir',
      `${join(dir, 'config.json')} is a ${CHECKPOINT_FORMAT} v1 checkpoint: the network without the hidden layer and the memory, which this version no longer runs; retrain, or load it with @skillrl/policy-tfjs 0.1`,
    );
  }
  if (manifest.format !== CHECKPOINT_FORMAT || manifest.version !== 2) {
    throw new InvalidArgumentError(
      'dir',
      `${join(dir, 'config.json')} is not a ${CHECKPOINT_FORMAT} v2 checkpoint (format ${String(manifest.format)}, version ${String(manifest.version)})`,
    );
  }
  const bytes = await readFile(join(dir, 'weights.bin'));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Checkpoints from before `earlierActionsFeature` existed lack it, and were trained with the feature on.
  const saved: Partial<AgentConfig> = manifest.config;
  const config = resolveAgentConfig({ earlierActionsFeature: true, ...saved });
  const vocabulary = vocabularyFromJson(manifest.vocabulary);
  const parameters = {} as AgentParameters;
  for (const w of manifest.weights) {
    if ((w.offset + w.length) * 4 > bytes.byteLength) {
      throw new SkillrlError(
        'SKILLRL_CHECKPOINT_TRUNCATED',
        `${join(dir, 'weights.bin')} holds ${bytes.byteLength} bytes, but weight ${w.name} needs up to ${(w.offset + w.length) * 4}`,
      );
    }
    const arr = new Float32Array(w.length);
    for (let i = 0; i < w.length; i++) arr[i] = view.getFloat32((w.offset + i) * 4, true);
    parameters[w.name] = arr;
  }
  const agent = createSkillReadingAgent({
    vocabulary,
    config,
    parameters,
    temperature: options.temperature ?? manifest.sampling.temperature,
    greedy: options.greedy ?? manifest.sampling.greedy,
    ...(options.seed !== undefined && { seed: options.seed }),
    ...(options.bindings && { bindings: options.bindings }),
    ...(options.expandActions && { expandActions: options.expandActions }),
  });
  // Loading is asynchronous anyway: return with the backend chosen, as a resumed run's next update needs it.
  await agent.ready();
  return agent;
}
