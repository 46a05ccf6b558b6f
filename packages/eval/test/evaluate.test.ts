import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { loadConfig } from '@skillrl/orchestrator';
import { afterAll, describe, expect, it } from 'vitest';
import { evolveConfig, tempDir, writeConfig } from '../../orchestrator/test/support.js';
import { EvaluationHealthError, evaluate, evaluationTasks, isRunDirectory } from '../src/index.js';

// The package's own API on the orchestrator's offline test config (household, a planner agent): the
// commands over it (`skillrl eval`, `skillrl skills test`) are tested through @skillrl/cli.
const dir = tempDir('eval');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('evaluate', () => {
  it("runs a config's agent on its tasks with and without each family's skill, writing nothing", async () => {
    const path = writeConfig(dir, evolveConfig());
    const loaded = loadConfig(path);
    const progress: number[] = [];
    const result = await evaluate(loaded, { episodes: 2, onProgress: (p) => progress.push(p.done) });
    // 2 tasks × 2 conditions × 2 episodes.
    expect(result.overall.episodes).toBe(8);
    expect(result.errors.total).toBe(0);
    expect(result.families.reduce((n, f) => n + f.episodes, 0)).toBe(8);
    for (const f of result.families) {
      expect(f.withoutSkill).toBeGreaterThanOrEqual(0);
      expect(f.withoutSkill).toBeLessThanOrEqual(1);
    }
    expect(progress.at(-1)).toBe(8);
    expect(isRunDirectory(dir)).toBe(false);
    expect(evaluationTasks(loaded.config)).toEqual({
      tasks: { split: 'train', limit: 2, seed: 7 },
      from: 'tasks',
    });
  });

  it('stops past the error budget with EvaluationHealthError, naming the config to evaluate again', async () => {
    // A port on which nothing listens: every episode's model call fails.
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((r) => server.close(() => r()));
    process.env.SKILLRL_EVAL_TEST_KEY = 'sk-eval-test-0123456789abcdef';
    const agent = {
      name: 'openai',
      options: {
        model: 'fake-model',
        baseURL: `http://127.0.0.1:${port}/v1`,
        apiKeyEnv: 'SKILLRL_EVAL_TEST_KEY',
        retry: { maxRetries: 0 },
      },
    };
    const path = writeConfig(join(dir, 'refused'), evolveConfig({ agent }));
    const error = await evaluate(loadConfig(path)).catch((e: unknown) => e);
    expect(EvaluationHealthError.isInstance(error)).toBe(true);
    expect((error as EvaluationHealthError).details.target).toBe(path);
    expect((error as Error).message).toContain(`evaluate again with \`skillrl eval ${path}\``);
    expect((error as Error).message).not.toContain('sk-eval-test');
  });
});
