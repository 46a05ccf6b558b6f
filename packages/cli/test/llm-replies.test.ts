import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Trajectory } from '@skillrl/core';
import { readRunStream } from '@skillrl/core';
import {
  type FakeChatRequest,
  type FakeOpenAIServer,
  type FakeReply,
  type FaultKind,
  startFakeOpenAI,
} from '@skillrl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { evolveConfig, finish, jsonResult as result, startCli, tempDir, writeConfig } from './support.js';

// What an LLM endpoint answers, through the built CLI as a user runs it, against the testkit's fake OpenAI
// server: a 200 with no usable choice is an endpoint error (retried, then counted by the error budget), the
// last turn of a tool episode has no tools and a tool call there is never the answer, and a misspelt option
// of the openai agent or the editor's model is refused by `check` and `run` with the fix.

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

const chat = (server: FakeOpenAIServer) =>
  server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as FakeChatRequest);

const SKILL = `\`\`\`markdown\n---\nname: household-steps\ndescription: Steps for household tasks.\n---\n\n1. go to the receptacle\n2. take the object\n\`\`\`\n`;
const fast = { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 };

/** Skill-R1 on household: the offline planner fixture as the task model, the LLM editor at `baseURL`. */
const editorRun = (name: string, baseURL: string) =>
  evolveConfig(
    { name, tasks: { split: 'train', limit: 2 } },
    {
      mode: 'inference',
      generations: 1,
      candidates: 2,
      episodes: 1,
      generator: {
        name: 'llm-editor',
        options: { model: { model: 'fake-model', baseURL, timeoutMs: 2000, retry: fast } },
      },
    },
  );

describe('an editor reply with no usable choice is an error of the endpoint', () => {
  const cases: { what: string; fault?: FaultKind; reply?: FakeReply; says: string }[] = [
    {
      what: 'choices: []',
      fault: 'no-choices',
      says: 'NoChoiceError: the endpoint answered 200 with choices: [] (no choice)',
    },
    {
      what: 'no choices field',
      fault: 'missing-choices',
      says: 'NoChoiceError: the endpoint answered 200 with no choices field',
    },
    {
      what: 'content null with only a tool call',
      reply: { toolCalls: [{ name: 'write_skill', arguments: '{}' }] },
      says: 'NoChoiceError: the endpoint answered 200 with a choice whose content is null and which has only a tool call (name write_skill)',
    },
  ];

  it.each(cases)(
    '$what: each call retried, the run stops with exit 3 and says what arrived; no "no SKILL.md" rejection',
    async (c) => {
      const editor = await serve({
        seed: 2,
        respond: () => c.reply ?? SKILL,
        ...(c.fault ? { faults: { plan: () => c.fault } } : {}),
      });
      const dir = tempDir('llm-replies-editor');
      const run = await cli(['run', writeConfig(dir, editorRun('no-choice', editor.baseURL)), '--json']);
      expect(run.code, run.err).toBe(3);
      const printed = result(run);
      expect(printed).toMatchObject({ ok: false, status: 'failed' });
      expect(printed.error.code).toBe('SKILLRL_RUN_HEALTH');
      expect(printed.error.kind).toBe('editor');
      expect(printed.error.message).toMatch(/editor calls of the first batch ended in an error/);
      expect(printed.error.common.error).toContain(c.says);
      expect(printed.error.common.error).toMatch(/gave up after 2 attempts/);
      // A call is a request and its one retry ("gave up after 2 attempts" above), never 3 repair rounds × n
      // choices: at most 2 tasks × 3 proposal attempts × 2 requests before the run stops (the old 18 a task).
      const received = editor.stats().received;
      expect(received).toBeGreaterThanOrEqual(2);
      expect(received).toBeLessThanOrEqual(2 * 3 * 2);
      // Nothing was read as a reply: no rejection, no fallback stored.
      const runDir = printed.dir as string;
      const rejections = [...readRunStream<{ reason?: string }>(runDir, 'rejections')];
      expect(JSON.stringify(rejections)).not.toContain('no SKILL.md');
      expect([...readRunStream(runDir, 'candidates')]).toEqual([]);
    },
    60_000,
  );

  it('the same editor with usable replies completes (the control)', async () => {
    const editor = await serve({ seed: 2, respond: () => SKILL });
    const dir = tempDir('llm-replies-editor-ok');
    const run = await cli(['run', writeConfig(dir, editorRun('ok', editor.baseURL)), '--json']);
    expect(run.code, run.err).toBe(0);
    expect(result(run)).toMatchObject({ ok: true, status: 'completed' });
  }, 60_000);

  it('the task agent: a reply with no choice is a model error of the rollout, never an action', async () => {
    const model = await serve({
      seed: 3,
      respond: () => 'Action: look',
      faults: { plan: () => 'no-choices' },
    });
    const dir = tempDir('llm-replies-agent');
    const config = evolveConfig(
      {
        name: 'agent-no-choice',
        tasks: { split: 'train', limit: 2 },
        maxSteps: 3,
        agent: {
          name: 'openai',
          options: { model: 'fake-model', baseURL: model.baseURL, timeoutMs: 2000, retry: fast },
        },
      },
      { variant: 'no-skill', generations: 1, episodes: 1 },
    );
    delete (config.evolve as Record<string, unknown>).generator;
    const run = await cli(['run', writeConfig(dir, config), '--json']);
    expect(run.code, run.err).toBe(3);
    const printed = result(run);
    expect(printed.error.kind).toBe('rollout');
    expect(printed.error.common.error).toContain(
      'NoChoiceError: the endpoint answered 200 with choices: [] (no choice)',
    );
    const stored = [...readRunStream<Trajectory>(printed.dir as string, 'rollouts')];
    expect(stored.length).toBeGreaterThan(0);
    for (const t of stored) {
      expect(t.error?.code).toBe('model');
      expect(t.steps).toEqual([]);
    }
  }, 60_000);
});

describe('at maxCalls the agent gets one last turn without tools; a tool call is never graded as the answer', () => {
  const QUESTION = 'What number is written in the attached notes?';

  /** One GAIA question with a text attachment, read with read_file, one tool call allowed. */
  function gaiaRun(name: string, baseURL: string): string {
    const dir = tempDir('llm-replies-gaia');
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'notes.txt'), 'The number is 17.\n');
    writeFileSync(
      join(dir, 'data', 'metadata.jsonl'),
      `${JSON.stringify({ task_id: 'notes-1', Question: QUESTION, Level: 1, 'Final answer': '17', file_name: 'notes.txt' })}\n`,
    );
    return writeConfig(dir, {
      method: 'evolve',
      seed: 1,
      name,
      adapter: { name: 'gaia', options: { path: 'data/metadata.jsonl', tools: { maxCalls: 1 } } },
      tasks: { split: 'validation' },
      agent: {
        name: 'openai',
        options: { model: 'fake-model', baseURL, mode: 'tools', timeoutMs: 2000, retry: fast },
      },
      maxSteps: 5,
      concurrency: 1,
      evolve: { variant: 'no-skill', episodes: 1 },
    });
  }

  /** Reads the file while tools are offered; on the last turn, `last`. */
  const model = (last: FakeReply) =>
    serve({
      seed: 4,
      respond: (request) => (request.tools ? { toolCalls: [{ name: 'read_file', arguments: '{}' }] } : last),
    });

  it('the last request carries no tools and the notice; its text answer is graded', async () => {
    const server = await model('The notes say 17.\nFINAL ANSWER: 17');
    const run = await cli(['run', gaiaRun('tools-answer', server.baseURL), '--json']);
    expect(run.code, run.err).toBe(0);
    const requests = chat(server);
    expect(requests).toHaveLength(2);
    expect(requests[0]?.tools?.map((t) => t.function.name)).toEqual(['act', 'read_file']);
    expect(requests[0]?.tool_choice).toBe('auto');
    expect(requests[1]).not.toHaveProperty('tools');
    expect(requests[1]).not.toHaveProperty('tool_choice');
    expect(requests[1]?.messages?.at(-1)).toEqual({
      role: 'user',
      content: 'Tool budget spent (maxCalls 1): answer now in plain text, no tool calls.',
    });
    expect(String(requests[1]?.messages?.find((m) => m.role === 'tool')?.content)).toContain(
      'The number is 17.',
    );
    const [t] = [...readRunStream<Trajectory>(result(run).dir as string, 'rollouts')];
    // The answer is parsed from the reply's text (its last line), as any text-mode answer.
    expect(t?.steps.map((s) => s.action)).toEqual(['read_file({})', 'FINAL ANSWER: 17']);
    expect(t?.steps[1]?.info).toMatchObject({ toolBudgetSpent: true });
    expect(t?.reward).toBe(1);
  }, 60_000);

  it('a model that calls a tool on the last turn anyway: no answer, scored as empty, never read_file({})', async () => {
    const server = await model({ toolCalls: [{ name: 'read_file', arguments: '{}' }] });
    const run = await cli(['run', gaiaRun('tools-no-answer', server.baseURL), '--json']);
    expect(run.code, run.err).toBe(0);
    expect(chat(server)).toHaveLength(2);
    const [t] = [...readRunStream<Trajectory>(result(run).dir as string, 'rollouts')];
    expect(t?.error).toBeUndefined();
    expect(t?.steps.map((s) => s.action)).toEqual(['read_file({})', '']);
    expect(t?.steps[1]).toMatchObject({
      invalid: true,
      info: { toolBudgetSpent: true, refusedToolCalls: ['read_file'] },
    });
    expect(String(t?.steps[1]?.info?.error)).toContain(
      'after the tool budget was spent (maxCalls 1): the episode ends without an answer',
    );
    expect(t?.answer).toBeUndefined();
    expect(t?.reward).toBe(0);
    expect(t?.verdict.details).toMatchObject({ answer: '' });
    expect(JSON.stringify(t?.verdict)).not.toContain('read_file');
  }, 60_000);
});

/**
 * Every problem a `--json` line reports, by path: the config's own (run's refusal lists them all there) and
 * each component's (check reports a built-in's option problems under its role).
 */
// biome-ignore lint/suspicious/noExplicitAny: a printed JSON result, inspected field by field.
const issuesOf = (json: Record<string, any>): unknown[] => [
  ...(json.error?.issues ?? []),
  ...(json.components ?? []).flatMap((c: { error?: { issues?: unknown[] } }) => c.error?.issues ?? []),
];

describe('unknown openai options are refused by check and run, with the fix', () => {
  const agentRun = (options: Record<string, unknown>) =>
    evolveConfig(
      {
        name: 'options',
        agent: {
          name: 'openai',
          options: { model: 'fake-model', baseURL: 'http://127.0.0.1:9/v1', ...options },
        },
      },
      { variant: 'no-skill', generations: 1, episodes: 1 },
    );

  it('agent.options.temprature: "did you mean temperature?" at check and at run; nothing runs', async () => {
    const dir = tempDir('llm-replies-options');
    const config = agentRun({ temprature: 0.7 });
    delete (config.evolve as Record<string, unknown>).generator;
    const file = writeConfig(dir, config);
    for (const command of ['check', 'run']) {
      const out = await cli([command, file, '--json']);
      expect(out.code, `${command}: ${out.err}`).toBe(1);
      expect(issuesOf(result(out))).toEqual([
        {
          path: '$.agent.options.temprature',
          message: 'unknown option of the openai agent; did you mean temperature?',
        },
      ]);
    }
    // Without --json: the path and the fix on stderr.
    const plain = await cli(['check', file]);
    expect(plain.code).toBe(1);
    expect(plain.err).toContain(
      '$.agent.options.temprature: unknown option of the openai agent; did you mean temperature?',
    );
    const ran = await cli(['run', file, '--run-dir', join(dir, 'run')]);
    expect(ran.code).toBe(1);
    expect(ran.err).toContain('did you mean temperature?');
  }, 60_000);

  it("the LLM editor's model options too; correct names pass check", async () => {
    const dir = tempDir('llm-replies-editor-options');
    const bad = editorRun('editor-options', 'http://127.0.0.1:9/v1');
    const generator = (
      bad.evolve as unknown as { generator: { options: { model: Record<string, unknown> } } }
    ).generator;
    generator.options.model = { ...generator.options.model, temprature: 0.7, max_tokens: 64 };
    const out = await cli(['check', writeConfig(dir, bad, 'bad.yaml'), '--json']);
    expect(out.code).toBe(1);
    expect(issuesOf(result(out))).toEqual([
      {
        path: '$.evolve.generator.options.model.temprature',
        message: 'unknown option of the OpenAI chat model; did you mean temperature?',
      },
      {
        path: '$.evolve.generator.options.model.max_tokens',
        message: 'unknown option of the OpenAI chat model; did you mean maxTokens? (sent as max_tokens)',
      },
    ]);
    generator.options.model = {
      model: 'fake-model',
      baseURL: 'http://127.0.0.1:9/v1',
      temperature: 0.7,
      maxTokens: 64,
    };
    const good = await cli(['check', writeConfig(dir, bad, 'good.yaml'), '--json']);
    expect(good.code, good.out).toBe(0);
  }, 60_000);
});
