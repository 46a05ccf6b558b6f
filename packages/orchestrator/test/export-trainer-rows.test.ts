import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Trajectory } from '@skillrl/core';
import {
  type FakeChatRequest,
  type FakeOpenAIServer,
  fakeLogProbs,
  fakePromptTokenIds,
  fakeTokenId,
  fakeTokenize,
  startFakeOpenAI,
} from '@skillrl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internalize } from '../src/internalize/internalize.js';
import { CLI, tempDir, writeConfig } from './support.js';

// `trainer: external` trains nothing and says so; `skillrl export` turns the run into rows an LLM trainer
// can use: checked, row by row, against what the fake OpenAI server received and returned.

const run = promisify(execFile);
const KEY = 'sk-test-export-0123456789';
const SEED = 9;
const COUNTING = resolve(__dirname, 'fixtures/counting-adapter.mjs');
const WORDS = ['one', 'two', 'three'];

function wordFor(request: FakeChatRequest): string {
  const messages = request.messages ?? [];
  const turn = messages.filter((m) => m.role === 'assistant').length;
  const knows = String(messages[0]?.content ?? '').includes('Say one, then two, then three.');
  return (knows ? WORDS[turn] : 'one') as string;
}

/** The fake task model: counts right when the skill is in its system prompt, else repeats itself. */
function replyFor(request: FakeChatRequest): string {
  return `Counting.\n<action>${wordFor(request)}</action>`;
}

/** In tools mode it calls the `act` tool instead. */
const toolArguments = (request: FakeChatRequest) => JSON.stringify({ action: wordFor(request) });

let server: FakeOpenAIServer;
beforeAll(async () => {
  // For the runs made in this process; the CLI's children get it through `env`.
  process.env.SKILLRL_TEST_KEY = KEY;
  server = await startFakeOpenAI({
    seed: SEED,
    respond: (request) =>
      request.tools ? { toolCalls: [{ name: 'act', arguments: toolArguments(request) }] } : replyFor(request),
  });
});
afterAll(async () => {
  await server.close();
  delete process.env.SKILLRL_TEST_KEY;
});

const env = { ...process.env, SKILLRL_TEST_KEY: KEY };
async function cli(args: string[]) {
  try {
    const r = await run(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
    return { code: 0, out: r.stdout, err: r.stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout, err: e.stderr };
  }
}

const lines = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

function config(name: string, adapter: unknown, agentOptions: Record<string, unknown>) {
  return {
    method: 'internalize',
    seed: 3,
    name,
    adapter,
    tasks: { split: 'train', limit: 4 },
    agent: {
      name: 'openai',
      options: {
        model: 'fake-model',
        baseURL: server.baseURL,
        apiKeyEnv: 'SKILLRL_TEST_KEY',
        ...agentOptions,
      },
    },
    concurrency: 4,
    maxSteps: 3,
    internalize: {
      steps: 2,
      tasksPerStep: 2,
      groupSize: 2,
      validateEvery: 1,
      validation: { split: 'valid', limit: 2 },
      trainer: 'external',
    },
  };
}

/** Every chat request the server answered, by its messages (the fake model is a function of them). */
function requestsByMessages(): Map<string, FakeChatRequest> {
  return new Map([...sentWithIndex()].map(([k, v]) => [k, v.body]));
}

function indicesOf(messages: unknown): number[] {
  const key = JSON.stringify(messages);
  return server.requests
    .filter((r) => JSON.stringify((r.body as FakeChatRequest | undefined)?.messages) === key)
    .map((r) => r.index);
}

function sentWithIndex(): Map<string, { body: FakeChatRequest; index: number }> {
  const out = new Map<string, { body: FakeChatRequest; index: number }>();
  for (const r of server.requests) {
    const body = r.body as FakeChatRequest;
    if (r.path === '/v1/chat/completions' && body?.messages) {
      out.set(JSON.stringify(body.messages), { body, index: r.index });
    }
  }
  return out;
}

interface TrlRowOut {
  prompt: FakeChatRequest['messages'];
  completion: { role: string; content: string | null; tool_calls?: unknown[] }[];
  tools?: unknown[];
  advantage: number;
  reward: number;
  prompt_ids?: number[];
  completion_ids?: number[];
  completion_logprobs?: number[];
  meta: { trajectory_id: string; turn: number; condition: 0 | 1; unit: string };
}

describe('external training, honestly', () => {
  const dir = tempDir('export-llm');
  const runDir = join(dir, 'runs', 'counting');
  let trl: TrlRowOut[] = [];

  it('an internalize run with trainer external says that no policy update happened, everywhere', async () => {
    const path = writeConfig(
      dir,
      config(
        'counting',
        { package: COUNTING, export: 'createCountingAdapter' },
        { logprobs: true, returnTokenIds: true },
      ),
    );
    const r = await cli(['run', path]);
    expect(r.code, r.err).toBe(0);
    const tail = r.out.trimEnd().split('\n').at(-1) ?? '';
    expect(tail).toMatch(/^no policy update happened: .*frozen starting policy/);
    const summary = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ frozenPolicy: true, metrics: { policy_frozen: 1 } });
    expect(summary.policyUpdate).toContain('registry:external');
    const events = lines<{ type: string; frozenPolicy?: boolean; metrics?: Record<string, number> }>(
      join(runDir, 'events.jsonl'),
    );
    const validations = events.filter((e) => e.type === 'validation');
    // step 0, 1, 2
    expect(validations).toHaveLength(3);
    for (const v of validations) expect(v.frozenPolicy).toBe(true);
    // No training metric pretends an update: the external trainer returns none.
    for (const e of events.filter((x) => x.type === 'step')) {
      expect(Object.keys(e.metrics ?? {}).some((k) => k.startsWith('train_'))).toBe(false);
    }
    const report = readFileSync(join(runDir, 'report.html'), 'utf8');
    expect(report).toContain('No policy update happened in this run');
    expect(report).toContain('frozen policy, no update');
  }, 60_000);

  it('export --format trl: per turn, the messages exactly as sent, the reply, token ids, log-probs, advantage', async () => {
    const r = await cli(['export', runDir, '--format', 'trl', '--json']);
    expect(r.code, r.err).toBe(0);
    const result = JSON.parse(r.out);
    expect(result).toMatchObject({ ok: true, format: 'trl', notes: [] });
    trl = lines<TrlRowOut>(result.path);
    const rollouts = lines<Trajectory>(join(runDir, 'rollouts.jsonl'));
    const trained = rollouts.filter((t) => /^s\d+\//.test(t.id));
    expect(trained).toHaveLength(8);
    expect(trl).toHaveLength(trained.reduce((a, t) => a + t.steps.length, 0));
    expect(result.rows).toBe(trl.length);
    const advantages = new Map<string, number>();
    for (const rec of lines<{ rows: { trajectoryId: string; advantage: number }[] }>(
      join(runDir, 'advantages.jsonl'),
    )) {
      for (const row of rec.rows) advantages.set(row.trajectoryId, row.advantage);
    }
    const sent = requestsByMessages();
    for (const row of trl) {
      const body = sent.get(JSON.stringify(row.prompt));
      expect(body, 'a row whose prompt the server never received').toBeDefined();
      const request = body as FakeChatRequest;
      expect(request.return_token_ids).toBe(true);
      const reply = replyFor(request);
      expect(row.completion).toEqual([{ role: 'assistant', content: reply }]);
      expect(row.prompt_ids).toEqual(fakePromptTokenIds(request));
      expect(row.completion_ids).toEqual(fakeTokenize(reply).map(fakeTokenId));
      expect(row.completion_logprobs).toEqual(
        fakeLogProbs(SEED, fakeTokenize(reply), 0).map((t) => t.logprob),
      );
      expect(row.advantage).toBe(advantages.get(row.meta.trajectory_id));
      // The skill is in the system prompt exactly when the rollout ran with it.
      expect(String(row.prompt?.[0]?.content).includes('Say one, then two')).toBe(row.meta.condition === 1);
      expect(row.prompt?.[0]?.role).toBe('system');
    }
    // Some rollouts were paired without the skill, and the advantages are not all zero.
    expect(new Set(trl.map((r) => r.meta.condition)).size).toBe(2);
    expect(trl.some((r) => r.advantage !== 0)).toBe(true);
  }, 60_000);

  it('export --format verl: one multi-turn sequence per trajectory, the model tokens masked in', async () => {
    const r = await cli(['export', runDir, '--format', 'verl', '--json']);
    expect(r.code, r.err).toBe(0);
    const result = JSON.parse(r.out);
    expect(result).toMatchObject({ format: 'verl', rows: 8, sources: 8, notes: [] });
    const rows = lines<{
      prompt_ids: number[];
      response_ids: number[];
      response_mask: number[];
      response_logprobs: number[];
      advantage: number;
      reward_score: number;
      num_turns: number;
      extra_fields: { trajectory_id: string; turns: number };
    }>(result.path);
    const sent = requestsByMessages();
    for (const row of rows) {
      const turns = trl
        .filter((t) => t.meta.trajectory_id === row.extra_fields.trajectory_id)
        .sort((a, b) => a.meta.turn - b.meta.turn);
      expect(turns).toHaveLength(3);
      expect(row.extra_fields.turns).toBe(3);
      expect(row.advantage).toBe(turns[0]?.advantage);
      expect(row.reward_score).toBe(turns[0]?.reward);
      const sequence = [...row.prompt_ids, ...row.response_ids];
      const masked = new Set<number>();
      let logprobAt = 0;
      for (const [k, turn] of turns.entries()) {
        const request = sent.get(JSON.stringify(turn.prompt)) as FakeChatRequest;
        const prompt = fakePromptTokenIds(request);
        const reply = fakeTokenize(replyFor(request));
        if (k === 0) expect(row.prompt_ids).toEqual(prompt);
        // Every turn's prompt, as the server tokenized it, is the sequence so far; its reply follows.
        expect(sequence.slice(0, prompt.length)).toEqual(prompt);
        expect(sequence.slice(prompt.length, prompt.length + reply.length)).toEqual(reply.map(fakeTokenId));
        const lps = fakeLogProbs(SEED, reply, 0).map((t) => t.logprob);
        for (let i = 0; i < reply.length; i++) {
          const at = prompt.length - row.prompt_ids.length + i;
          masked.add(at);
          expect(row.response_logprobs[at]).toBe(lps[i]);
          logprobAt++;
        }
        if (k === turns.length - 1) expect(sequence).toHaveLength(prompt.length + reply.length);
      }
      expect(row.response_mask).toEqual(row.response_ids.map((_, i) => (masked.has(i) ? 1 : 0)));
      expect(row.response_logprobs).toHaveLength(row.response_ids.length);
      expect(logprobAt).toBe(row.response_mask.filter((m) => m === 1).length);
      // system, user, then (assistant, user) twice, and the final reply.
      expect(row.num_turns).toBe(7);
    }
  }, 60_000);

  it('verl rows per turn when the agent re-renders its history (household lists admissible actions)', async () => {
    const hdir = tempDir('export-household');
    const base = config('household', 'household', { returnTokenIds: true });
    const cfg = {
      ...base,
      tasks: { split: 'train', limit: 2 },
      internalize: { ...base.internalize, steps: 1, validation: { split: 'valid_seen', limit: 1 } },
    };
    const result = await internalize(cfg as never, { configPath: writeConfig(hdir, cfg) });
    const r = await cli(['export', result.dir, '--format', 'verl', '--json']);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.notes.join(' ')).toMatch(/one row per turn/);
    const rows = lines<{
      prompt_ids: number[];
      response_ids: number[];
      response_mask: number[];
      response_logprobs?: number[];
    }>(out.path);
    const trained = lines<Trajectory>(join(result.dir, 'rollouts.jsonl')).filter((t) =>
      t.id.startsWith('s1/'),
    );
    expect(rows).toHaveLength(trained.reduce((a, t) => a + t.steps.length, 0));
    const prompts = new Set(
      server.requests.map((q) => JSON.stringify(fakePromptTokenIds(q.body as FakeChatRequest))),
    );
    for (const row of rows) {
      expect(prompts.has(JSON.stringify(row.prompt_ids))).toBe(true);
      expect(row.response_mask.every((m) => m === 1)).toBe(true);
      // Asked for token ids only: no log-probs to pass on.
      expect(row.response_logprobs).toBeUndefined();
    }
  }, 60_000);

  it('without token ids, verl export fails saying why and how; trl rows still carry the messages', async () => {
    const ndir = tempDir('export-noids');
    const base = config('noids', { package: COUNTING, export: 'createCountingAdapter' }, {});
    const cfg = { ...base, internalize: { ...base.internalize, steps: 1 } };
    const result = await internalize(cfg as never, { configPath: writeConfig(ndir, cfg) });
    const verl = await cli(['export', result.dir, '--format', 'verl']);
    expect(verl.code).toBe(1);
    expect(verl.err).toContain('verl rows are token ids');
    expect(verl.err).toContain('returnTokenIds: true');
    expect(verl.err).toContain('--format trl');
    const trlOut = await cli(['export', result.dir, '--format', 'trl']);
    expect(trlOut.code, trlOut.err).toBe(0);
    expect(trlOut.out).toMatch(/^wrote 12 trl rows to /);
    const rows = lines<TrlRowOut>(join(result.dir, 'export-trl.jsonl'));
    expect(rows[0]?.prompt?.[0]?.role).toBe('system');
    expect(rows.every((row) => row.prompt_ids === undefined && row.completion_ids === undefined)).toBe(true);
  }, 60_000);

  it('tools mode: trl rows carry the tools and the tool calls as sent; the turns still chain for verl', async () => {
    const tdir = tempDir('export-tools');
    const cfg = {
      ...config(
        'tools',
        { package: COUNTING, export: 'createCountingAdapter' },
        {
          mode: 'tools',
          logprobs: true,
          returnTokenIds: true,
        },
      ),
    };
    cfg.internalize = { ...cfg.internalize, steps: 1 };
    const result = await internalize(cfg as never, { configPath: writeConfig(tdir, cfg) });
    const r = await cli(['export', result.dir, '--format', 'trl', '--json']);
    expect(r.code, r.err).toBe(0);
    const rows = lines<TrlRowOut>(JSON.parse(r.out).path);
    expect(rows).toHaveLength(12);
    const sent = sentWithIndex();
    for (const row of rows) {
      const hit = sent.get(JSON.stringify(row.prompt));
      expect(hit).toBeDefined();
      const { body } = hit as { body: FakeChatRequest; index: number };
      expect(row.tools).toEqual(body.tools);
      const callId = (row.completion[0]?.tool_calls?.[0] as { id?: string } | undefined)?.id ?? '';
      // The id is the server's (call_<request index>_0); identical prompts of a group went out as several
      // requests, so it is one of theirs.
      expect(indicesOf(row.prompt)).toContain(Number(/^call_(\d+)_0$/.exec(callId)?.[1]));
      expect(row.completion).toEqual([
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: callId, type: 'function', function: { name: 'act', arguments: toolArguments(body) } },
          ],
        },
      ]);
      expect(row.completion_ids).toEqual(fakeTokenize(toolArguments(body)).map(fakeTokenId));
      // Earlier turns went back as assistant tool calls answered by tool messages.
      if (row.meta.turn > 0) expect(row.prompt?.map((m) => m.role)).toContain('tool');
    }
    const verl = await cli(['export', result.dir, '--format', 'verl', '--json']);
    expect(verl.code, verl.err).toBe(0);
    expect(JSON.parse(verl.out)).toMatchObject({ rows: 4, sources: 4, notes: [] });
  }, 60_000);
});
