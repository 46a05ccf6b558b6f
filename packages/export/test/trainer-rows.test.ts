import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError, type Trajectory } from '@skillrl/core';
import { createOpenAIAgent, type OpenAIAgentOptions } from '@skillrl/rollout';
import { createHouseholdAdapter } from '@skillrl/task-household';
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
import { exportRun } from '../src/index.js';
import { COUNTING_SKILL_BODY, createCountingAdapter, WORDS } from './counting-adapter.js';
import { type InternalizeRunOptions, makeInternalizeRun } from './make-run-dir.js';

// The rows each layout gives for real run directories (episodes of rollout's openai agent against the
// testkit's fake OpenAI server, see make-run-dir.ts): checked, row by row, against what the server
// received and returned.

const SEED = 9;

function wordFor(request: FakeChatRequest): string {
  const messages = request.messages ?? [];
  const turn = messages.filter((m) => m.role === 'assistant').length;
  const knows = String(messages[0]?.content ?? '').includes(COUNTING_SKILL_BODY);
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
  server = await startFakeOpenAI({
    seed: SEED,
    respond: (request) =>
      request.tools ? { toolCalls: [{ name: 'act', arguments: toolArguments(request) }] } : replyFor(request),
  });
});
afterAll(async () => {
  await server.close();
});

const lines = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

/** 2 steps × 2 tasks × 2 episodes (one with the skill, one without), after a paired validation of 2 tasks. */
function counting(agent: Partial<OpenAIAgentOptions>, run: Partial<InternalizeRunOptions> = {}) {
  return makeInternalizeRun({
    adapter: createCountingAdapter(),
    agent: createOpenAIAgent({
      model: 'fake-model',
      baseURL: server.baseURL,
      apiKey: 'sk-test-export-0123456789',
      seed: 3,
      ...agent,
    }),
    steps: 2,
    tasksPerStep: 2,
    groupSize: 2,
    validation: { split: 'valid', limit: 2 },
    maxSteps: 3,
    seed: 3,
    ...run,
  });
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

describe('trl and verl rows of a run with token ids and log-probs', () => {
  let runDir: string;
  let trl: TrlRowOut[] = [];

  beforeAll(async () => {
    runDir = await counting({ logprobs: true, returnTokenIds: true });
  });

  it('trl: per turn, the messages exactly as sent, the reply, token ids, log-probs, advantage', () => {
    const result = exportRun(runDir, { format: 'trl' });
    expect(result).toMatchObject({ format: 'trl', notes: [], rowsNotWritten: 0 });
    expect(result.path).toBe(join(runDir, 'export-trl.jsonl'));
    trl = lines<TrlRowOut>(result.path);
    const rollouts = lines<Trajectory>(join(runDir, 'rollouts.jsonl'));
    const trained = rollouts.filter((t) => /^s\d+\//.test(t.id));
    expect(trained).toHaveLength(8);
    // The validation's rollouts are in the run, and give no row.
    expect(rollouts.length).toBeGreaterThan(trained.length);
    expect(trl).toHaveLength(trained.reduce((a, t) => a + t.steps.length, 0));
    expect(result.rows).toBe(trl.length);
    expect(result.sources).toBe(8);
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
      expect(row.meta.unit).toBe(row.meta.trajectory_id.split('/')[0]);
      // The skill is in the system prompt exactly when the rollout ran with it.
      expect(String(row.prompt?.[0]?.content).includes(COUNTING_SKILL_BODY)).toBe(row.meta.condition === 1);
      expect(row.prompt?.[0]?.role).toBe('system');
    }
    // Some rollouts were paired without the skill, and the advantages are not all zero.
    expect(new Set(trl.map((r) => r.meta.condition)).size).toBe(2);
    expect(trl.some((r) => r.advantage !== 0)).toBe(true);
  });

  it('verl: one multi-turn sequence per trajectory, the model tokens masked in', () => {
    const result = exportRun(runDir, { format: 'verl', out: join(runDir, 'verl.jsonl') });
    expect(result).toMatchObject({ format: 'verl', rows: 8, sources: 8, notes: [] });
    expect(result.path).toBe(join(runDir, 'verl.jsonl'));
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
  });
});

describe('what the rows leave out, and when a layout cannot be written', () => {
  it('verl rows per turn when the agent re-renders its history (household lists admissible actions)', async () => {
    const dir = await makeInternalizeRun({
      adapter: createHouseholdAdapter(),
      agent: createOpenAIAgent({
        model: 'fake-model',
        baseURL: server.baseURL,
        apiKey: 'sk-test',
        seed: 3,
        returnTokenIds: true,
      }),
      steps: 1,
      tasksPerStep: 2,
      groupSize: 2,
      validation: { split: 'valid_seen', limit: 1 },
      maxSteps: 3,
      seed: 3,
    });
    const out = exportRun(dir, { format: 'verl' });
    expect(out.notes.join(' ')).toMatch(/4 of 4 trajectories are one row per turn/);
    const rows = lines<{
      prompt_ids: number[];
      response_ids: number[];
      response_mask: number[];
      response_logprobs?: number[];
    }>(out.path);
    const trained = lines<Trajectory>(join(dir, 'rollouts.jsonl')).filter((t) => t.id.startsWith('s1/'));
    expect(trained).toHaveLength(4);
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
  });

  it('without token ids, verl fails saying why and how, and writes nothing; trl rows still carry the messages', async () => {
    const dir = await counting({}, { steps: 1 });
    let error: unknown;
    try {
      exportRun(dir, { format: 'verl' });
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('verl rows are token ids');
    expect(message).toContain('none of the 4 trained trajectories');
    expect(message).toContain('returnTokenIds: true');
    expect(message).toContain('--format trl');
    expect(() => readFileSync(join(dir, 'export-verl.jsonl'))).toThrow(/ENOENT/);
    const trl = exportRun(dir, { format: 'trl' });
    expect(trl.rows).toBe(12);
    const rows = lines<TrlRowOut>(trl.path);
    expect(rows[0]?.prompt?.[0]?.role).toBe('system');
    expect(rows.every((row) => row.prompt_ids === undefined && row.completion_ids === undefined)).toBe(true);
  });

  it('without chat records, verl and trl both point to --format jsonl, which works', async () => {
    const dir = await counting({}, { steps: 1 });
    // An agent that records no chat turns (a policy of its own): the same run without info.chat.
    const file = join(dir, 'rollouts.jsonl');
    const stripped = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const t = JSON.parse(line) as { steps: { info?: Record<string, unknown> }[] };
        for (const step of t.steps) delete step.info?.chat;
        return JSON.stringify(t);
      });
    writeFileSync(file, `${stripped.join('\n')}\n`);
    for (const format of ['verl', 'trl'] as const) {
      let message = '';
      try {
        exportRun(dir, { format });
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message, format).toContain('--format jsonl');
      expect(message, format).not.toContain('--format trl gives');
    }
    expect(exportRun(dir, { format: 'jsonl' }).rows).toBeGreaterThan(0);
  });

  it('tools mode: trl rows carry the tools and the tool calls as sent; the turns still chain for verl', async () => {
    const dir = await counting({ mode: 'tools', logprobs: true, returnTokenIds: true }, { steps: 1 });
    const result = exportRun(dir, { format: 'trl' });
    const rows = lines<TrlRowOut>(result.path);
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
    expect(exportRun(dir, { format: 'verl' })).toMatchObject({ rows: 4, sources: 4, notes: [] });
  });
});
