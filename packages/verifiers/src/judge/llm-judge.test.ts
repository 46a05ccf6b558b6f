import type { Task, Trajectory } from '@skillrl/core';
import { type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { JudgeChatClient } from './judge-chat-client.js';
import { JudgeError } from './judge-error.js';
import { llmJudge } from './llm-judge.js';

const task: Task = {
  id: 't',
  family: 'qa',
  split: 'test',
  prompt: 'Why is the sky blue?',
  answer: 'Rayleigh scattering',
};
const traj = (answer: string): Trajectory => ({
  id: 'r',
  taskId: 't',
  family: 'qa',
  condition: 0,
  steps: [],
  answer,
  reward: 0,
  verdict: { score: 0, passed: false },
});
const API_KEY = 'sk-judge-test-0123456789abcdef';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const userMessage = (s: FakeOpenAIServer, i: number) => {
  const body = s.requests.filter((r) => r.path.endsWith('/chat/completions'))[i]?.body as {
    messages: { role: string; content: string }[];
  };
  return body.messages.find((m) => m.role === 'user')?.content ?? '';
};

describe('llmJudge against a real local OpenAI-compatible server', () => {
  it('renders the rubric prompt and maps GRADE: A to 1', async () => {
    server = await startFakeOpenAI({ script: ['The answer names the mechanism.\nGRADE: A'] });
    const judge = llmJudge({
      model: 'judge',
      baseURL: server.baseURL,
      apiKey: API_KEY,
      rubric: 'Must name Rayleigh scattering.',
    });
    const v = await judge.verify(task, traj('Because of Rayleigh scattering.'));
    expect(v).toMatchObject({
      score: 1,
      passed: true,
      reason: 'judge score 1',
      details: { k: 1, parsed: 1, agreement: 1 },
    });
    const prompt = userMessage(server, 0);
    for (const part of [
      'Why is the sky blue?',
      'Because of Rayleigh scattering.',
      'Must name Rayleigh scattering.',
      '[Reference answer]\nRayleigh scattering',
      'GRADE: A, GRADE: B or GRADE: C',
    ]) {
      expect(prompt).toContain(part);
    }
    // The key went to the server as a bearer token and nowhere into the verdict.
    expect(JSON.stringify(v)).not.toContain(API_KEY);
  });

  it("takes openai's own client as options.client (the local JudgeChatClient shape), and any object of that shape", async () => {
    server = await startFakeOpenAI({ script: ['GRADE: A', 'GRADE: C'] });
    // Type-checked: openai's client is assignable to the shape the declarations use instead of openai's types.
    const client: JudgeChatClient = new OpenAI({ baseURL: server.baseURL, apiKey: API_KEY, maxRetries: 0 });
    const judged = await llmJudge({ model: 'judge', client, rubric: 'r' }).verify(task, traj('a'));
    expect(judged.score).toBe(1);
    const sent: string[] = [];
    const own: JudgeChatClient = {
      chat: {
        completions: {
          create: async (request) => {
            sent.push(request.model);
            return { choices: [{ message: { content: 'GRADE: B' } }] };
          },
        },
      },
    };
    expect((await llmJudge({ model: 'mine', client: own, rubric: 'r' }).verify(task, traj('a'))).score).toBe(
      0.5,
    );
    expect(sent).toEqual(['mine']);
  });

  it('repeat-k reports the disagreement and aggregates (mean, majority, median)', async () => {
    // Scripted grades A, B, C, A → scores 1, 0.5, 0, 1: mean 0.625, majority 1, median (0.5 + 1) / 2 = 0.75;
    // the most common score (1) covers 2 of 4 samples → agreement 0.5.
    const script = ['GRADE: A', 'hmm\nGRADE: B', 'GRADE: C', 'GRADE: A'];
    for (const [aggregate, expected] of [
      ['mean', 0.625],
      ['majority', 1],
      ['median', 0.75],
    ] as const) {
      server = await startFakeOpenAI({ script });
      const judge = llmJudge({
        model: 'judge',
        baseURL: server.baseURL,
        apiKey: API_KEY,
        rubric: 'r',
        repeat: 4,
        aggregate,
      });
      const v = await judge.verify(task, traj('x'));
      expect(v.score).toBeCloseTo(expected, 12);
      expect(v.details).toMatchObject({ k: 4, parsed: 4, unparseable: 0, agreement: 0.5, aggregate });
      expect((v.details as { samples: { score: number }[] }).samples.map((s) => s.score).sort()).toEqual([
        0, 0.5, 1, 1,
      ]);
      const bodies = server.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body);
      expect(bodies).toHaveLength(4);
      // Sampling is on by default when k > 1, or the k answers would be one answer k times.
      expect(bodies.every((b) => (b as { temperature: number }).temperature === 0.7)).toBe(true);
      await server.close();
      server = undefined;
    }
  });

  it('parses SCORE lines and ignores unparseable samples when others parse', async () => {
    // Samples: 0.8, 7/10 = 0.7, "great answer" (no score) → mean of the two parsed = 0.75.
    server = await startFakeOpenAI({ script: ['SCORE: 0.8', 'SCORE: 7/10', 'great answer'] });
    const judge = llmJudge({
      model: 'judge',
      baseURL: server.baseURL,
      apiKey: API_KEY,
      rubric: 'r',
      parse: 'score',
      repeat: 3,
      threshold: 0.7,
    });
    const v = await judge.verify(task, traj('x'));
    expect(v.score).toBeCloseTo(0.75, 12);
    expect(v.passed).toBe(true);
    expect(v.details).toMatchObject({ parsed: 2, unparseable: 1 });
    expect(v.reason).toMatch(/1 unparseable reply\(ies\) ignored/);
    expect(userMessage(server, 0)).toContain('SCORE: <a number from 0 to 1>');
  });

  it('unparseable judge output gives a 0 verdict with a clear reason, not an exception', async () => {
    server = await startFakeOpenAI({ script: ['I would say it is pretty good.', 'SCORE: 1.7'] });
    const grade = llmJudge({ model: 'judge', baseURL: server.baseURL, apiKey: API_KEY, rubric: 'r' });
    const v = await grade.verify(task, traj('x'));
    expect(v).toMatchObject({ score: 0, passed: false, details: { parsed: 0, agreement: null } });
    expect(v.reason).toMatch(
      /^judge output unparseable in its reply: expected "GRADE: A, GRADE: B or GRADE: C .*", got "I would say it is pretty good\."$/,
    );
    // Out-of-range scores are unparseable, not clamped.
    const score = llmJudge({
      model: 'judge',
      baseURL: server.baseURL,
      apiKey: API_KEY,
      rubric: 'r',
      parse: 'score',
    });
    expect((await score.verify(task, traj('x'))).reason).toMatch(/unparseable.*"SCORE: 1\.7"/);
  });

  it('a 500 from the judge past the retry budget throws a JudgeError without the key', async () => {
    server = await startFakeOpenAI({ script: ['GRADE: A'], faults: { plan: () => 'server-error' } });
    const judge = llmJudge({
      model: 'judge',
      baseURL: server.baseURL,
      apiKey: API_KEY,
      rubric: 'r',
      maxRetries: 1,
    });
    const error = await judge.verify(task, traj('x')).catch((e: unknown) => e);
    expect(JudgeError.isInstance(error)).toBe(true);
    expect((error as JudgeError).status).toBe(500);
    expect((error as JudgeError).message).toMatch(/^judge request to model "judge" failed: 500/);
    expect((error as JudgeError).message).not.toContain(API_KEY);
    // One try plus one retry reached the server.
    expect(server.stats().faulted['server-error']).toBe(2);
    expect(server.inFlight()).toBe(0);
  });

  it("onError: 'verdict' turns the failure into a 0 verdict marked judgeError", async () => {
    server = await startFakeOpenAI({ faults: { plan: () => 'server-error' } });
    const judge = llmJudge({
      model: 'judge',
      baseURL: server.baseURL,
      apiKey: API_KEY,
      rubric: 'r',
      maxRetries: 0,
      onError: 'verdict',
    });
    const v = await judge.verify(task, traj('x'));
    expect(v).toMatchObject({ score: 0, passed: false, details: { judgeError: { status: 500 } } });
    expect(v.reason).toMatch(/judge request to model "judge" failed: 500/);
    expect(JSON.stringify(v)).not.toContain(API_KEY);
  });

  it('retries a transient 500 and then grades', async () => {
    server = await startFakeOpenAI({
      script: ['GRADE: B'],
      faults: { plan: ({ attempt }) => (attempt === 0 ? 'server-error' : undefined) },
    });
    const judge = llmJudge({
      model: 'judge',
      baseURL: server.baseURL,
      apiKey: API_KEY,
      rubric: 'r',
      maxRetries: 2,
    });
    expect((await judge.verify(task, traj('x'))).score).toBe(0.5);
  });

  it('takes a custom template, grades and parser; rejects unknown placeholders', async () => {
    server = await startFakeOpenAI({
      respond: (request) => (JSON.stringify(request.messages).includes('42') ? 'verdict=yes' : 'verdict=no'),
    });
    const judge = llmJudge({
      model: 'judge',
      baseURL: server.baseURL,
      apiKey: API_KEY,
      rubric: 'exact',
      template: 'Q: {{prompt}} A: {{answer}}',
      parse: (text) => (text.includes('verdict=yes') ? 1 : text.includes('verdict=no') ? 0 : undefined),
    });
    expect((await judge.verify(task, traj('42'))).score).toBe(1);
    expect((await judge.verify(task, traj('41'))).score).toBe(0);
    const plusMinus = llmJudge({
      model: 'judge',
      baseURL: server.baseURL,
      apiKey: API_KEY,
      rubric: 'r',
      grades: { P: 1, F: 0 },
    });
    expect(plusMinus.name).toBe('llmJudge');
    expect(() => llmJudge({ model: 'judge', rubric: 'r', template: '{{question}}' })).toThrow(
      /unknown placeholder \{\{question\}\}/,
    );
    expect(() => llmJudge({ model: 'judge', rubric: 'r', repeat: 0 })).toThrow(/options\.repeat/);
  });
});
