import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Task, Trajectory } from '@skillrl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonlProblem } from '../jsonl/jsonl-problem.js';
import { createWebWalkerAdapter, WEBWALKER_FAMILIES } from './create-webwalker-adapter.js';
import { buildWebWalkerJudgePrompt } from './judge-prompt.js';
import { createWebWalkerVerifier } from './webwalker-verifier.js';

const FILE = fileURLToPath(new URL('../../test-fixtures/webwalker/main.jsonl', import.meta.url));

function reply(answer: string): Trajectory {
  return {
    id: 't',
    taskId: 'w',
    family: 'x',
    condition: 0,
    steps: [],
    answer,
    reward: 0,
    verdict: { score: 0, passed: false },
  };
}

describe('createWebWalkerAdapter', () => {
  const problems: JsonlProblem[] = [];
  const adapter = createWebWalkerAdapter({ path: FILE, onProblems: (p) => problems.push(...p) });

  it('reads both key spellings into type × difficulty families', async () => {
    const tasks = await adapter.load({ split: 'main' });
    expect(tasks.map((t) => t.family)).toEqual([
      'webwalker-single-easy',
      'webwalker-multi-medium',
      'webwalker-multi-hard',
      'webwalker-unknown',
    ]);
    expect(adapter.families).toEqual([...WEBWALKER_FAMILIES, 'webwalker-unknown']);
    const capitalised = tasks[1] as Task;
    expect(capitalised.answer).toContain('Brune-Kreisky-Platz 1');
    expect(capitalised.metadata).toMatchObject({
      type: 'multi',
      difficulty: 'medium',
      rootUrl: 'https://2025.aclweb.org/',
      lang: 'English',
      domain: 'Conference',
      sourceWebsite: ['https://2025.aclweb.org/calls/industry_track/', 'https://2025.aclweb.org/venue/'],
    });
    expect(capitalised.prompt).toMatch(
      /venue address for the conference\?\n\nStart from the website https:\/\/2025\.aclweb\.org\/$/,
    );
    expect(capitalised.id).toMatch(/^webwalker-[0-9a-f]{12}$/);
  });

  it('reports rows without type or difficulty, and a row whose question is not text', () => {
    expect(problems.map((p) => [p.line, p.field, p.severity])).toEqual([
      [4, 'info.type|Info.Hop', 'warning'],
      [4, 'info.difficulty_level|Info.Difficulty_Level', 'warning'],
      [5, 'question|Question', 'error'],
    ]);
  });

  it('falls back to token F1, labelled as not the official metric', async () => {
    const [first] = await adapter.load({ split: 'main' });
    const verdict = await adapter
      .verifier(first as Task)
      .verify(first as Task, reply('The deadline is March 21, 2025'));
    // Normalised gold "deadline is march 21 2025" (5 tokens) vs the same 5 tokens: F1 = 1.
    expect(verdict).toMatchObject({
      score: 1,
      passed: true,
      details: { metric: 'token-f1', official: false },
    });
    const half = await adapter.verifier(first as Task).verify(first as Task, reply('March 21'));
    // 2 common tokens; precision 2/2, recall 2/5 → F1 = 2·1·0.4/1.4 = 0.5714…
    expect(half.score).toBeCloseTo(0.5714285714, 9);
    expect(String(half.details?.note)).toContain('NOT WebWalkerQA');
  });
});

describe('createWebWalkerVerifier with a judge over HTTP', () => {
  let server: Server;
  let url = '';
  const prompts: string[] = [];
  beforeAll(async () => {
    // A stand-in judge model on a real local socket: it grades CORRECT when the student answer names the venue.
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        prompts.push(body);
        const student = body.slice(body.lastIndexOf('STUDENT ANSWER:'));
        if (student.includes('mumble')) res.end('I cannot decide.');
        else
          res.end(
            student.includes('Brune-Kreisky')
              ? 'The venue matches.\nGRADE: CORRECT'
              : 'Wrong venue.\nGRADE: INCORRECT',
          );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/judge`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the official prompt and parses the GRADE', async () => {
    const verifier = createWebWalkerVerifier({
      judge: async (prompt) => (await fetch(url, { method: 'POST', body: prompt })).text(),
    });
    const [, task] = await createWebWalkerAdapter({ path: FILE, onProblems: () => {} }).load({
      split: 'main',
    });
    const good = await verifier.verify(task as Task, reply('March 21, 2025, at Brune-Kreisky-Platz 1'));
    expect(good).toMatchObject({
      score: 1,
      passed: true,
      details: { metric: 'webwalker-cot-qa-judge', official: true, grade: 'CORRECT' },
    });
    expect(prompts[0]).toContain(
      `QUESTION: ${(task as Task).metadata?.question}\nCONTEXT: ${(task as Task).answer}\n`,
    );
    expect(await verifier.verify(task as Task, reply('In Vienna'))).toMatchObject({
      score: 0,
      details: { grade: 'INCORRECT' },
    });
    const ungraded = await verifier.verify(task as Task, reply('mumble'));
    expect(ungraded).toMatchObject({ score: 0, passed: false, details: { grade: null } });
    expect(ungraded.reason).toContain('no grade');
  });
});

describe('createWebWalkerVerifier with a judge model (llmJudge over a fake OpenAI server)', () => {
  it('sends exactly the official prompt as one user message and reads the GRADE', async () => {
    const { startFakeOpenAI } = await import('@skillrl/testkit');
    const server = await startFakeOpenAI({
      script: ['Step 1: the dates agree.\nGRADE: CORRECT', 'The venue differs.\nGRADE: INCORRECT', 'Hmm.'],
    });
    try {
      const verifier = createWebWalkerVerifier({
        judge: { model: 'judge-model', baseURL: server.baseURL, apiKey: 'test-key' },
      });
      const [, task] = await createWebWalkerAdapter({ path: FILE, onProblems: () => {} }).load({
        split: 'main',
      });
      const t = task as Task;
      const answer = 'March 21, 2025, at Brune-Kreisky-Platz 1';
      expect(await verifier.verify(t, reply(answer))).toMatchObject({
        score: 1,
        passed: true,
        details: { metric: 'webwalker-cot-qa-judge', official: true, grade: 'CORRECT' },
      });
      const body = server.requests.find((r) => r.path.endsWith('/chat/completions'))?.body as {
        model: string;
        temperature: number;
        messages: Array<{ role: string; content: string }>;
      };
      expect(body.model).toBe('judge-model');
      expect(body.temperature).toBe(0);
      expect(body.messages).toEqual([
        {
          role: 'user',
          content: buildWebWalkerJudgePrompt({
            question: t.metadata?.question as string,
            reference: t.answer as string,
            prediction: answer,
          }),
        },
      ]);
      expect(await verifier.verify(t, reply('Vienna'))).toMatchObject({
        score: 0,
        details: { grade: 'INCORRECT' },
      });
      expect(await verifier.verify(t, reply('?'))).toMatchObject({
        score: 0,
        passed: false,
        details: { grade: null },
      });
    } finally {
      await server.close();
    }
  });
});
