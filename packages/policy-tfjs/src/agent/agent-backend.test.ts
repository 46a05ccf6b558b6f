import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createVocabulary } from '../text/vocabulary.js';
import { loadSkillReadingAgent } from './checkpoint.js';
import { createSkillReadingAgent } from './create-skill-reading-agent.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const TFJS_BANNER = /TensorFlow\.js in Node\.js/;

// Runs first in its own worker: nothing in it has touched tfjs before the agent is created.
describe('the skill-reading agent and the tfjs backend', () => {
  it('creating the agent alone chooses the backend: wasm, not the cpu backend a first tensor starts', async () => {
    vi.stubEnv('SKILLRL_TF_BACKEND', '');
    const warn = vi.spyOn(console, 'warn');
    const agent = createSkillReadingAgent({ vocabulary: createVocabulary(['take', 'egg']), seed: 1 });
    const info = await agent.ready();
    expect(info.backend).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    // What a trainer beside it computes next lands on wasm, and tfjs prints nothing.
    tf.tidy(() => tf.ones([2, 2]).dataSync());
    expect(warn.mock.calls.map((c) => c.join(' ')).join('\n')).not.toMatch(TFJS_BANNER);
    // Views share the agent's choice; a loaded agent returns with the same backend active.
    expect(await agent.withSampling({ greedy: true }).ready()).toBe(info);
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-agent-backend-'));
    await agent.save(dir);
    const loaded = await loadSkillReadingAgent(dir);
    expect(await loaded.ready()).toBe(info);
    expect(tf.getBackend()).toBe('wasm');
  });
});
