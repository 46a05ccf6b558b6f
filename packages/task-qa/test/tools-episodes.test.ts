// The benchmarks' tools end to end: the openai agent in tools mode, driven by scripted replies of a real
// local HTTP server speaking the OpenAI API, calls read_file / web_search / fetch_page / visit_page; rollout
// executes them and sends each result back in the next request; the final answer is scored by the
// benchmark's own verifier.
import { fileURLToPath } from 'node:url';
import type { Trajectory } from '@skillrl/core';
import { collectRollouts, createOpenAIAgent } from '@skillrl/rollout';
import {
  type FakeChatRequest,
  type FakeOpenAIServer,
  type FakeReply,
  startFakeOpenAI,
} from '@skillrl/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createGaiaAdapter, createWebWalkerAdapter } from '../src/index.js';

const fixture = (path: string) => fileURLToPath(new URL(`../test-fixtures/${path}`, import.meta.url));
const quiet = () => {};
const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Message = NonNullable<FakeChatRequest['messages']>[number];
const call = (name: string, args: Record<string, unknown>): FakeReply => ({
  content: null as unknown as string,
  toolCalls: [{ name, arguments: JSON.stringify(args) }],
});
const userText = (request: FakeChatRequest) =>
  (request.messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) => String(m.content))
    .join('\n');
const toolMessages = (request: FakeChatRequest): Message[] =>
  (request.messages ?? []).filter((m) => m.role === 'tool');

/** Serves, per question, the n-th reply after n tool results: a scripted multi-turn conversation. */
async function scriptedModel(scripts: Record<string, FakeReply[]>) {
  const server = await startFakeOpenAI({
    respond: (request) => {
      const question = Object.keys(scripts).find((q) => userText(request).includes(q));
      if (!question) return 'FINAL ANSWER: unknown question';
      const turn = toolMessages(request).length;
      return scripts[question]?.[turn] ?? 'FINAL ANSWER: out of script';
    },
  });
  servers.push(server);
  return server;
}

function chatRequests(server: FakeOpenAIServer, question: string): FakeChatRequest[] {
  return server.requests
    .filter((r) => r.path === '/v1/chat/completions')
    .map((r) => r.body as FakeChatRequest)
    .filter((body) => userText(body).includes(question));
}

describe('GAIA with tools, through the openai agent and a local OpenAI-compatible server', () => {
  const Q_XLSX = 'How many visitors were there in total?';
  const Q_SEARCH = 'What is the capital city of Australia?';
  const Q_PDF = 'how many staff were there in 2024?';

  it('read_file, web_search and fetch_page results reach the model; the answers pass the GAIA scorer', async () => {
    const adapter = createGaiaAdapter({
      path: fixture('gaia-tools/validation/metadata.jsonl'),
      tools: { web: { backend: 'page-cache', path: '../pages.jsonl' }, maxCalls: 4 },
      onProblems: quiet,
    });
    expect(adapter.tools?.map((t) => t.name)).toEqual(['read_file', 'web_search', 'fetch_page']);
    const server = await scriptedModel({
      [Q_XLSX]: [call('read_file', { path: 'visits.xlsx' }), 'The total row says 200.\nFINAL ANSWER: 200'],
      [Q_SEARCH]: [
        call('web_search', { query: 'capital of Australia' }),
        call('fetch_page', { url: 'https://en.example.org/wiki/Canberra' }),
        { content: 'FINAL ANSWER: canberra' },
      ],
      // The act tool is the other way to answer.
      [Q_PDF]: [call('read_file', {}), call('act', { action: 'FINAL ANSWER: 42' })],
    });
    const agent = createOpenAIAgent({
      model: 'fake',
      baseURL: server.baseURL,
      mode: 'tools',
      apiKey: 'test',
    });
    const tasks = await adapter.load({ split: 'validation' });
    const trajectories: Trajectory[] = await collectRollouts({
      tasks,
      adapter,
      agent,
      groupSize: 1,
    }).collect();
    const byTask = Object.fromEntries(trajectories.map((t) => [t.taskId, t]));

    // The workbook: one read_file call, its text in the next request's tool message, then the answer.
    const xlsx = byTask['tools-xlsx'] as Trajectory;
    expect(xlsx.error).toBeUndefined();
    expect(xlsx.steps.map((s) => s.action)).toEqual([
      'read_file({"path":"visits.xlsx"})',
      'FINAL ANSWER: 200',
    ]);
    expect(xlsx.answer).toBe('FINAL ANSWER: 200');
    expect(xlsx).toMatchObject({
      reward: 1,
      verdict: { passed: true, details: { rule: 'number', answer: '200' } },
    });
    const [first, second] = chatRequests(server, Q_XLSX);
    expect(first?.tools?.map((t) => t.function.name)).toEqual([
      'act',
      'read_file',
      'web_search',
      'fetch_page',
    ]);
    expect(toolMessages(first as FakeChatRequest)).toEqual([]);
    const sent = toolMessages(second as FakeChatRequest);
    expect(sent).toHaveLength(1);
    expect(String(sent[0]?.content)).toContain('File: visits.xlsx (Excel workbook (.xlsx), 2 sheets');
    expect(String(sent[0]?.content)).toContain('total,200');
    const assistant = (second?.messages ?? []).find((m) => m.role === 'assistant') as {
      tool_calls: { id: string }[];
    };
    expect(sent[0]?.tool_call_id).toBe(assistant.tool_calls[0]?.id);

    // The search question: the search results, then the page, each sent back before the next turn.
    const search = byTask['tools-search'] as Trajectory;
    expect(search.steps.map((s) => s.action)).toEqual([
      'web_search({"query":"capital of Australia"})',
      'fetch_page({"url":"https://en.example.org/wiki/Canberra"})',
      'FINAL ANSWER: canberra',
    ]);
    expect(search).toMatchObject({ reward: 1, verdict: { details: { rule: 'string' } } });
    const turns = chatRequests(server, Q_SEARCH);
    expect(turns).toHaveLength(3);
    const results = String(toolMessages(turns[1] as FakeChatRequest)[0]?.content);
    // BM25 over the three cached pages: the title match puts "Australia" first, then Canberra.
    expect(results).toMatch(
      /^Search results for "capital of Australia" \(page-cache \(3 pages\)\):\n\n1\. Australia\n/,
    );
    expect(results).toContain(
      '2. Canberra\n   https://en.example.org/wiki/Canberra\n   Canberra is the capital city',
    );
    const page = String(toolMessages(turns[2] as FakeChatRequest)[1]?.content);
    expect(page).toContain('Title: Canberra\nURL: https://en.example.org/wiki/Canberra');
    expect(page).toContain('[1] Australia -> https://en.example.org/wiki/Australia');

    // The PDF: read_file with no path reads the attachment; the answer comes through the act tool.
    const pdf = byTask['tools-pdf'] as Trajectory;
    expect(pdf.steps.map((s) => s.action)).toEqual(['read_file({})', 'FINAL ANSWER: 42']);
    expect(String(toolMessages(chatRequests(server, Q_PDF)[1] as FakeChatRequest)[0]?.content)).toContain(
      'Total staff: 42',
    );
    expect(pdf.reward).toBe(1);
  });

  it('a refused path comes back to the model as text and the episode goes on; the step limit holds', async () => {
    const adapter = createGaiaAdapter({
      path: fixture('gaia-tools/validation/metadata.jsonl'),
      tools: { maxCalls: 2 },
      onProblems: quiet,
    });
    expect(adapter.tools?.map((t) => t.name)).toEqual(['read_file']);
    const server = await scriptedModel({
      [Q_XLSX]: [
        call('read_file', { path: 'metadata.jsonl' }),
        call('read_file', { path: '../../attachments/sales.csv' }),
        'FINAL ANSWER: 200',
      ],
    });
    const agent = createOpenAIAgent({
      model: 'fake',
      baseURL: server.baseURL,
      mode: 'tools',
      apiKey: 'test',
    });
    const [task] = (await adapter.load({ split: 'validation' })).filter((t) => t.id === 'tools-xlsx');
    const [t] = await collectRollouts({ tasks: [task as never], adapter, agent, groupSize: 1 }).collect();
    expect(t?.error).toBeUndefined();
    const turns = chatRequests(server, Q_XLSX);
    expect(String(toolMessages(turns[1] as FakeChatRequest)[0]?.content)).toBe(
      `Error: "metadata.jsonl" is not this question's attached file; the only file you can read is visits.xlsx.`,
    );
    expect(String(toolMessages(turns[2] as FakeChatRequest)[1]?.content)).toMatch(/is outside the folder/);
    // Two tool calls + the answer = maxCalls + 1 steps.
    expect(t?.steps).toHaveLength(3);
    expect(t?.reward).toBe(1);
  });
});

describe('GAIA at maxCalls: the last turn has no tools, and a tool call is never the answer', () => {
  const Q_XLSX = 'How many visitors were there in total?';
  const gaia = () =>
    createGaiaAdapter({
      path: fixture('gaia-tools/validation/metadata.jsonl'),
      tools: { maxCalls: 1 },
      onProblems: quiet,
    });
  const run = async (replies: FakeReply[]) => {
    const server = await scriptedModel({ [Q_XLSX]: replies });
    const agent = createOpenAIAgent({
      model: 'fake',
      baseURL: server.baseURL,
      mode: 'tools',
      apiKey: 'test',
    });
    const adapter = gaia();
    const [task] = (await adapter.load({ split: 'validation' })).filter((t) => t.id === 'tools-xlsx');
    const [t] = await collectRollouts({ tasks: [task as never], adapter, agent, groupSize: 1 }).collect();
    return { t: t as Trajectory, turns: chatRequests(server, Q_XLSX) };
  };

  it('the request after the budget carries no tools and says to answer now; its text is graded', async () => {
    const { t, turns } = await run([call('read_file', { path: 'visits.xlsx' }), 'FINAL ANSWER: 200']);
    expect(turns).toHaveLength(2);
    expect(turns[0]?.tools?.map((tool) => tool.function.name)).toEqual(['act', 'read_file']);
    expect(turns[0]?.tool_choice).toBe('auto');
    expect(turns[1]).not.toHaveProperty('tools');
    expect(turns[1]).not.toHaveProperty('tool_choice');
    expect(turns[1]?.messages?.at(-1)).toEqual({
      role: 'user',
      content: 'Tool budget spent (maxCalls 1): answer now in plain text, no tool calls.',
    });
    // The workbook's text still reaches the model before it answers.
    expect(String(toolMessages(turns[1] as FakeChatRequest)[0]?.content)).toContain('total,200');
    expect(t.answer).toBe('FINAL ANSWER: 200');
    expect(t.reward).toBe(1);
  });

  it('a model that calls a tool anyway ends without an answer: graded as empty, never as read_file({})', async () => {
    const { t, turns } = await run([call('read_file', { path: 'visits.xlsx' }), call('read_file', {})]);
    expect(turns).toHaveLength(2);
    expect(t.error).toBeUndefined();
    expect(t.steps.map((s) => s.action)).toEqual(['read_file({"path":"visits.xlsx"})', '']);
    expect(t.steps[1]).toMatchObject({
      invalid: true,
      info: { toolBudgetSpent: true, refusedToolCalls: ['read_file'] },
    });
    expect(String(t.steps[1]?.info?.error)).toContain('after the tool budget was spent (maxCalls 1)');
    expect(t.answer).toBeUndefined();
    expect(t.reward).toBe(0);
    expect(t.verdict.details).toMatchObject({ answer: '' });
    expect(t.verdict.reason).not.toContain('read_file');
  });
});

describe('WebWalkerQA with visit_page over a page cache', () => {
  const Q = 'When is the paper submission deadline for the Industry Track?';

  it('starts on the root page, visits links by URL (relative ones too), and answers', async () => {
    const problems: string[] = [];
    const adapter = createWebWalkerAdapter({
      path: fixture('webwalker-tools/main.jsonl'),
      pages: 'pages.jsonl',
      onProblems: (found) => problems.push(...found.map((p) => `${p.line} ${p.message}`)),
    });
    expect(adapter.tools?.map((t) => t.name)).toEqual(['visit_page']);
    expect(problems).toContainEqual(
      expect.stringMatching(/^2 https:\/\/missing\.example\.org\/ is not in the page cache .*no start page$/),
    );
    const server = await scriptedModel({
      [Q]: [
        call('visit_page', { url: 'https://conf.example.org/calls/' }),
        call('visit_page', { url: '/calls/industry' }),
        call('visit_page', { url: '/calls/nowhere' }),
        // The reply's last line is the answer (WebWalkerQA has no answer template).
        'The Industry Track page gives the deadline.\nMarch 21, 2025',
      ],
    });
    const agent = createOpenAIAgent({
      model: 'fake',
      baseURL: server.baseURL,
      mode: 'tools',
      apiKey: 'test',
    });
    const tasks = (await adapter.load({ split: 'main' })).filter((t) => t.prompt.includes(Q));
    const [t] = await collectRollouts({ tasks, adapter, agent, groupSize: 1 }).collect();
    const turns = chatRequests(server, Q);
    // The first request already shows the root page with its links (the agent starts there).
    const opening = userText(turns[0] as FakeChatRequest);
    expect(opening).toContain(
      'You are on the start page.\n\nTitle: Conf 2025\nURL: https://conf.example.org/',
    );
    expect(opening).toContain('[1] Calls -> https://conf.example.org/calls');
    expect(String(toolMessages(turns[1] as FakeChatRequest)[0]?.content)).toContain(
      '[1] Industry Track -> https://conf.example.org/calls/industry',
    );
    expect(String(toolMessages(turns[2] as FakeChatRequest)[1]?.content)).toContain(
      'Paper submission deadline: March 21, 2025.',
    );
    expect(String(toolMessages(turns[3] as FakeChatRequest)[2]?.content)).toMatch(
      /^Page not found: https:\/\/conf\.example\.org\/calls\/nowhere is not in the offline copy of the site/,
    );
    expect(t?.steps.map((s) => s.action)).toEqual([
      'visit_page({"url":"https://conf.example.org/calls/"})',
      'visit_page({"url":"/calls/industry"})',
      'visit_page({"url":"/calls/nowhere"})',
      'March 21, 2025',
    ]);
    // Without a judge the verifier is token F1 against the gold answer.
    expect(t).toMatchObject({ reward: 1, verdict: { passed: true, details: { metric: 'token-f1' } } });
  });
});
