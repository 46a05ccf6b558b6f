import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Trajectory } from '@skillrl/core';
import type { RunConfig } from '@skillrl/orchestrator';
import { type FakeChatRequest, type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { respondWithTools, TOOL_SCRIPTS, toolQuestionOf, toolResults } from './fake-gaia-tools-model.js';
import {
  cleanTestRuns,
  EXAMPLE,
  everyFile,
  exampleConfig,
  readJsonl,
  skillrl,
  TEST_RUNS,
  writeTestConfig,
} from './run-example.js';

const KEY = 'sk-example-gaia-tools-0123456789abcdef';
const previousKey = process.env.OPENAI_API_KEY;
let server: FakeOpenAIServer;

beforeAll(async () => {
  process.env.OPENAI_API_KEY = KEY;
  server = await startFakeOpenAI({ seed: 3, latencyMs: [1, 3], respond: respondWithTools });
});
afterAll(async () => {
  await server.close();
  if (previousKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = previousKey;
  cleanTestRuns(['gaia-tools']);
});

/** The requests the server received for one question, in order. */
function requestsFor(taskId: string): FakeChatRequest[] {
  return server.requests
    .map((r) => r.body as FakeChatRequest)
    .filter((body) => body && toolQuestionOf(body) === taskId);
}

describe('examples/gaia-openai with tools (gaia-tools.yaml)', () => {
  it('is valid as shipped', async () => {
    const check = await skillrl(['check', join(EXAMPLE, 'gaia-tools.yaml')]);
    expect(check.code, check.out.join('\n')).toBe(0);
  });

  it('reads attachments, searches the offline page cache, and the answers are GAIA-scored', async () => {
    const config = exampleConfig('gaia-tools.yaml');
    const adapter = config.adapter as { name: string; options: Record<string, unknown> & { path: string } };
    const agent = config.agent as { name: string; options: Record<string, unknown> };
    const path = writeTestConfig('gaia-tools', {
      ...config,
      adapter: { ...adapter, options: { ...adapter.options, path: join(EXAMPLE, adapter.options.path) } },
      agent: {
        ...agent,
        options: {
          ...agent.options,
          baseURL: server.baseURL,
          timeoutMs: 5000,
          retry: { maxRetries: 2, baseDelayMs: 2 },
        },
      },
    } as RunConfig);
    const run = await skillrl(['run', path, '--run-dir', join(TEST_RUNS, 'gaia-tools')]);
    expect(run.code, run.err.join('\n')).toBe(0);
    const { dir, metrics } = run.result;

    const rollouts = readJsonl<Trajectory>(join(dir, 'rollouts.jsonl'));
    expect(rollouts).toHaveLength(4);
    for (const t of rollouts) {
      const script = TOOL_SCRIPTS[t.taskId as keyof typeof TOOL_SCRIPTS];
      expect(t.error, t.taskId).toBeUndefined();
      expect(t.reward, t.taskId).toBe(script.reward);
      // One step per scripted turn: the tool calls, then the answer.
      expect(t.steps, t.taskId).toHaveLength(script.turns.length);
      const called = t.steps
        .slice(0, -1)
        .map((s) => (s.info?.toolCall as { name?: string } | undefined)?.name);
      expect(called, t.taskId).toEqual(script.tools);
    }
    expect(metrics.final_reward).toBeCloseTo(3 / 4, 12);

    // What came back to the model: each tool result is in the next request it sent.
    const [, xlsx] = requestsFor('skillrl-gaia-tools-0001');
    expect(xlsx?.tools?.map((t) => t.function.name)).toEqual([
      'act',
      'read_file',
      'web_search',
      'fetch_page',
    ]);
    expect(toolResults(xlsx as FakeChatRequest)[0]).toMatch(
      /^File: visits\.xlsx \(Excel workbook \(\.xlsx\), 2 sheets/,
    );
    expect(toolResults(xlsx as FakeChatRequest)[0]).toContain('total,200');
    const [, csv] = requestsFor('skillrl-gaia-tools-0002');
    expect(toolResults(csv as FakeChatRequest)[0]).toContain('March,1350');
    const search = requestsFor('skillrl-gaia-tools-0003');
    expect(search).toHaveLength(3);
    expect(toolResults(search[1] as FakeChatRequest)[0]).toMatch(
      /^Search results for "capital of Australia founded" \(page-cache \(4 pages\)\):/,
    );
    expect(toolResults(search[2] as FakeChatRequest)[1]).toContain(
      'It was founded in 1913 as a planned city',
    );
    const [, image] = requestsFor('skillrl-gaia-tools-0004');
    expect(toolResults(image as FakeChatRequest)[0]).toMatch(
      /^Cannot read pixel\.png: it is an image \(PNG image, image\/png\); read_file returns text only/,
    );

    for (const file of everyFile(dir)) expect(readFileSync(file, 'utf8'), file).not.toContain(KEY);
    expect([...run.out, ...run.err].join('\n')).not.toContain(KEY);
  });
});
