import { readLatestRecords, type Trajectory } from '@skillrl/core';
import { type FakeOpenAIServer, type FakeReply, startFakeOpenAI } from '@skillrl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { evolveConfig, finish, jsonResult as result, startCli, tempDir, writeConfig } from './support.js';

// A reply the caller cannot use is an error of the endpoint on every path, through the built CLI against
// the testkit's fake OpenAI server: `content: null` with only a tool call, to a household run (its agent in
// text mode offers no tools), is a retried NoChoiceError and then a rollout with `error.code: 'model'`,
// counted by the error budget and in `rollouts_errored` — not an "empty reply" scored 0 as the policy's
// failure; the LLM editor meets the same reply with the same words.

const cli = (args: string[]) => finish(startCli(args));

const servers: FakeOpenAIServer[] = [];
async function serve(options: Parameters<typeof startFakeOpenAI>[0]) {
  const server = await startFakeOpenAI(options);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const fast = { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 };
const TOOL_ONLY: FakeReply = { toolCalls: [{ name: 'act', arguments: '{"action":"look"}' }] };
const SAYS =
  'NoChoiceError: the endpoint answered 200 with a choice whose content is null and which has only a tool call (name act), finish_reason tool_calls (text was asked for)';

/** Skill-R1's no-skill variant on household with the openai agent (text mode: no tools offered). */
function agentRun(name: string, baseURL: string, extra: Record<string, unknown> = {}) {
  const config = evolveConfig(
    {
      name,
      tasks: { split: 'train', limit: 2 },
      maxSteps: 3,
      agent: { name: 'openai', options: { model: 'fake-model', baseURL, timeoutMs: 2000, retry: fast } },
      ...extra,
    },
    { variant: 'no-skill', generations: 1, episodes: 2 },
  );
  delete (config.evolve as Record<string, unknown>).generator;
  return writeConfig(tempDir('unusable-reply'), config);
}

describe('the task agent: content null with only a tool call, on a task that offers no tools', () => {
  it('every reply so: each call retried, the run stops with exit 3 naming the reply in words; rollouts end in a model error', async () => {
    const model = await serve({ seed: 3, respond: () => TOOL_ONLY });
    const run = await cli(['run', agentRun('tool-only', model.baseURL), '--json']);
    expect(run.code, run.err).toBe(3);
    const printed = result(run);
    expect(printed).toMatchObject({ ok: false, status: 'failed' });
    expect(printed.error).toMatchObject({ code: 'SKILLRL_RUN_HEALTH', kind: 'rollout', rule: 'first-batch' });
    expect(printed.error.common.error).toContain(SAYS);
    expect(printed.error.common.error).toMatch(/gave up after 2 attempts/);
    // 3 leaves a resumable run, and the hint names it.
    expect(printed.error.message).toContain(`skillrl resume ${printed.dir}`);
    // No request offered tools; every decision was asked twice (the request and its retry), never scored.
    const chats = model.requests.filter((r) => r.path === '/v1/chat/completions');
    expect(chats.every((r) => !(r.body as { tools?: unknown }).tools)).toBe(true);
    const stored = [...readLatestRecords<Trajectory>(printed.dir as string, 'rollouts')];
    expect(stored.length).toBeGreaterThan(0);
    expect(chats).toHaveLength(2 * stored.length);
    for (const t of stored) {
      expect(t.error?.code).toBe('model');
      expect(t.steps).toEqual([]);
    }
    expect(JSON.stringify(stored)).not.toContain('empty reply');
  }, 60_000);

  it('some replies so, under a budget that lets the run finish: rollouts_errored counts exactly those rollouts', async () => {
    // The episodes of one task (the first asked about, known by its first user turn) get the tool-only
    // reply, the other task's a usable one: a retry asks the same and is answered the same.
    let failing: string | undefined;
    const model = await serve({
      seed: 3,
      respond: (request) => {
        const task = JSON.stringify(request.messages?.[1]?.content ?? '');
        failing ??= task;
        return task === failing ? TOOL_ONLY : 'Action: look';
      },
    });
    const run = await cli([
      'run',
      agentRun('some-tool-only', model.baseURL, { health: { maxErrorShare: 1, firstBatch: 'off' } }),
      '--json',
    ]);
    expect(run.code, run.err).toBe(0);
    const printed = result(run);
    const stored = [...readLatestRecords<Trajectory>(printed.dir as string, 'rollouts')];
    const errored = stored.filter((t) => t.error);
    expect(errored.length).toBeGreaterThan(0);
    expect(errored.length).toBeLessThan(stored.length);
    for (const t of errored) expect(t.error?.message).toContain(SAYS);
    expect(printed.metrics.rollouts_errored).toBe(errored.length);
    // The rollouts that ended without an error never met that reply: none holds an "empty reply" step.
    for (const t of stored.filter((x) => !x.error)) {
      expect(t.steps.every((s) => s.info?.error !== 'empty reply')).toBe(true);
    }
  }, 60_000);
});

describe('the LLM editor: the same reply', () => {
  it('is the same NoChoiceError, and the run stops with exit 3 (as it did)', async () => {
    const editor = await serve({ seed: 2, respond: () => TOOL_ONLY });
    const config = evolveConfig(
      { name: 'editor-tool-only', tasks: { split: 'train', limit: 2 } },
      {
        mode: 'inference',
        generations: 1,
        candidates: 2,
        episodes: 1,
        generator: {
          name: 'llm-editor',
          options: { model: { model: 'fake-model', baseURL: editor.baseURL, timeoutMs: 2000, retry: fast } },
        },
      },
    );
    const run = await cli(['run', writeConfig(tempDir('unusable-reply-editor'), config), '--json']);
    expect(run.code, run.err).toBe(3);
    const printed = result(run);
    expect(printed.error.kind).toBe('editor');
    expect(printed.error.common.error).toContain(SAYS);
    expect(printed.error.message).toContain(`skillrl resume ${printed.dir}`);
  }, 60_000);
});
