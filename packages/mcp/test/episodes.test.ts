// Episodes served over real HTTP to the official SDK client: a household game played to its win with the
// expert's plan, a GAIA-style QA task answered after its own tools (read_file, web_search, fetch_page), and two
// episodes at once. Each handler steps the task's real environment (test/step-bridge.ts).
import type { Task } from '@skillrl/core';
import { createHouseholdAdapter, planActions } from '@skillrl/task-household';
import { createGaiaAdapter } from '@skillrl/task-qa';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ADMISSIBLE_ACTIONS_URI,
  EPISODE_DONE_LINE,
  EPISODE_INSTRUCTIONS,
  type EpisodeHandler,
  NO_ADMISSIBLE_ACTIONS,
  startTaskMcpServer,
  type TaskMcpServer,
} from '../src/index.js';
import { type Connected, connect, fixture, textOf } from './mcp-client.js';
import { createStepBridge } from './step-bridge.js';

const household = createHouseholdAdapter();
const qa = createGaiaAdapter({
  path: fixture('qa/validation/metadata.jsonl'),
  tools: { web: { backend: 'page-cache', path: '../pages.jsonl' }, maxCalls: 4 },
  onProblems: () => {},
});

const servers: TaskMcpServer[] = [];
const clients: Connected[] = [];
afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((c) => c.client.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handlers: Record<string, EpisodeHandler>): Promise<TaskMcpServer> {
  const server = await startTaskMcpServer({ episode: (token) => handlers[token] });
  servers.push(server);
  return server;
}

async function open(server: TaskMcpServer, token: string): Promise<Connected> {
  const connected = await connect(server.urlFor(token));
  clients.push(connected);
  return connected;
}

function expertPlan(task: Task): string[] {
  const env = household.createEnvironment(task);
  env.reset();
  return planActions(env);
}

describe('the tools an episode serves', () => {
  it('lists observe, act, admissible_actions, submit and the QA task tools under their own names and schemas', async () => {
    const [task] = await qa.load({ split: 'validation' });
    const bridge = await createStepBridge(qa, task as Task, 'qa-1');
    const server = await serve({ t1: bridge });
    const { client } = await open(server, 't1');

    expect(client.getServerVersion()?.name).toBe('skillrl');
    expect(client.getInstructions()).toBe(EPISODE_INSTRUCTIONS);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'observe',
      'act',
      'admissible_actions',
      'submit',
      'read_file',
      'web_search',
      'fetch_page',
    ]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.act?.inputSchema).toMatchObject({ type: 'object', required: ['action'] });
    expect(byName.submit?.inputSchema).toMatchObject({ type: 'object', required: ['answer'] });
    expect(byName.observe?.annotations?.readOnlyHint).toBe(true);
    for (const tool of qa.tools ?? []) {
      expect(byName[tool.name]?.inputSchema).toEqual(tool.parameters);
      expect(byName[tool.name]?.description).toBe(tool.description);
    }
    for (const tool of tools) expect(tool.description?.length ?? 0).toBeGreaterThan(20);

    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([ADMISSIBLE_ACTIONS_URI]);
  });
});

describe('a household game over MCP', () => {
  it('plays the expert plan to the win: each action admissible, the last observation ends "[episode done]"', async () => {
    const [task] = await household.load({ split: 'valid_seen', limit: 1, seed: 3 });
    const plan = expertPlan(task as Task);
    expect(plan.length).toBeGreaterThan(1);
    const bridge = await createStepBridge(household, task as Task, 'household-1');
    const server = await serve({ h1: bridge });
    const { client } = await open(server, 'h1');

    const first = await client.callTool({ name: 'observe' });
    expect(textOf(first)).toBe(await bridge.initialObservation());
    expect(textOf(first)).toContain('Your task is to:');
    expect(first.structuredContent).toEqual({ observation: textOf(first), done: false });

    let last: Awaited<ReturnType<typeof client.callTool>> | undefined;
    for (const [i, action] of plan.entries()) {
      const listed = await client.callTool({ name: 'admissible_actions' });
      const actions = textOf(listed).split('\n');
      expect(actions).toContain(action);
      expect(listed.structuredContent).toEqual({ listed: true, actions });
      if (i === 0) {
        // The resource is the same list.
        const resource = await client.readResource({ uri: ADMISSIBLE_ACTIONS_URI });
        expect(resource.contents[0]).toMatchObject({ mimeType: 'text/plain', text: textOf(listed) });
      }
      last = await client.callTool({ name: 'act', arguments: { action } });
      expect(last.isError).toBeFalsy();
      const stepped = bridge.results.at(-1);
      expect(last.structuredContent).toEqual({ observation: stepped?.observation, done: stepped?.done });
      expect(textOf(last).startsWith(stepped?.observation as string)).toBe(true);
      if (i < plan.length - 1) expect(textOf(last)).not.toContain(EPISODE_DONE_LINE);
    }
    expect(textOf(last).endsWith(`\n\n${EPISODE_DONE_LINE}`)).toBe(true);
    expect(bridge.results.at(-1)).toMatchObject({ reward: 1, done: true, info: { won: true } });
    expect(bridge.results).toHaveLength(plan.length);

    // After the end, observe reports the last observation and that the episode is over.
    const after = await client.callTool({ name: 'observe' });
    expect(after.structuredContent).toMatchObject({ done: true });
    expect(textOf(after)).toBe(textOf(last));
  });
});

describe('a QA task with tools over MCP', () => {
  it('read_file, web_search and fetch_page answer with the task tools; submit ends the episode, scored by GAIA', async () => {
    const tasks = await qa.load({ split: 'validation' });
    const note = tasks.find((t) => t.id === 'mcp-note') as Task;
    const bridge = await createStepBridge(qa, note, 'qa-note');
    const server = await serve({ q1: bridge });
    const { client } = await open(server, 'q1');

    expect(textOf(await client.callTool({ name: 'observe' }))).toContain('How many chairs does it hold?');
    const read = await client.callTool({ name: 'read_file', arguments: { path: 'note.txt' } });
    expect(read.isError).toBeFalsy();
    expect(textOf(read)).toContain('holds 12 chairs');
    expect(read.structuredContent).toMatchObject({ done: false });

    const search = await client.callTool({
      name: 'web_search',
      arguments: { query: 'capital of Australia' },
    });
    expect(textOf(search)).toMatch(/^Search results for "capital of Australia" \(page-cache \(3 pages\)\)/);
    const page = await client.callTool({
      name: 'fetch_page',
      arguments: { url: 'https://en.example.org/wiki/Canberra' },
    });
    expect(textOf(page)).toContain('Canberra is the capital city of Australia');
    expect(bridge.toolCalls).toEqual([
      'read_file({"path":"note.txt"})',
      'web_search({"query":"capital of Australia"})',
      'fetch_page({"url":"https://en.example.org/wiki/Canberra"})',
    ]);
    // Tool results are look-ups, not observations: observe still shows the question.
    expect(textOf(await client.callTool({ name: 'observe' }))).toContain('How many chairs');

    // A QA environment enumerates no actions: the tool and the resource say so.
    const listed = await client.callTool({ name: 'admissible_actions' });
    expect(textOf(listed)).toBe(NO_ADMISSIBLE_ACTIONS);
    expect(listed.structuredContent).toEqual({ listed: false, actions: [] });

    const submitted = await client.callTool({ name: 'submit', arguments: { answer: 'FINAL ANSWER: 12' } });
    expect(submitted.isError).toBeFalsy();
    expect(textOf(submitted)).toBe(`Answer received.\n\n${EPISODE_DONE_LINE}`);
    expect(submitted.structuredContent).toEqual({ observation: 'Answer received.', done: true });
    expect(bridge.results).toHaveLength(1);
    expect(bridge.results[0]).toMatchObject({ reward: 1, done: true, info: { verdict: { passed: true } } });
  });

  it('a step limit the handler reports (`ended`) ends the text with the reason', async () => {
    const limited = createGaiaAdapter({
      path: fixture('qa/validation/metadata.jsonl'),
      tools: { maxCalls: 1 },
      onProblems: () => {},
    });
    const tasks = await limited.load({ split: 'validation' });
    const bridge = await createStepBridge(limited, tasks[0] as Task, 'qa-limited');
    const server = await serve({ q2: bridge });
    const { client } = await open(server, 'q2');
    await client.callTool({ name: 'read_file', arguments: {} });
    const second = await client.callTool({ name: 'read_file', arguments: {} });
    expect(textOf(second)).toMatch(/\n\n\[episode ended: the step limit \(2\) is reached\]$/);
    expect(second.structuredContent).toMatchObject({ done: true, ended: 'the step limit (2) is reached' });
    const after = await client.callTool({ name: 'observe' });
    expect(after.structuredContent).toMatchObject({ done: true, ended: 'the step limit (2) is reached' });
    expect(textOf(after)).toContain('How many chairs');
  });
});

describe('episodes side by side', () => {
  it('two tokens, two sessions at once: each sees its own environment only', async () => {
    const [a, b] = await household.load({ split: 'valid_seen', limit: 2, seed: 7 });
    const bridgeA = await createStepBridge(household, a as Task, 'A');
    const bridgeB = await createStepBridge(household, b as Task, 'B');
    const server = await serve({ 'token-a': bridgeA, 'token-b': bridgeB });
    const [ca, cb] = await Promise.all([open(server, 'token-a'), open(server, 'token-b')]);
    expect(server.stats()).toEqual({ sessions: 2, episodes: 2 });

    const [obsA, obsB] = await Promise.all([
      ca.client.callTool({ name: 'observe' }),
      cb.client.callTool({ name: 'observe' }),
    ]);
    expect(textOf(obsA)).toBe(await bridgeA.initialObservation());
    expect(textOf(obsB)).toBe(await bridgeB.initialObservation());
    expect(textOf(obsA)).not.toBe(textOf(obsB));

    // Both play their plans at once; every step lands in its own environment.
    const planA = expertPlan(a as Task);
    const planB = expertPlan(b as Task);
    const play = async (c: Connected, plan: string[]) => {
      for (const action of plan) await c.client.callTool({ name: 'act', arguments: { action } });
    };
    await Promise.all([play(ca, planA), play(cb, planB)]);
    expect(bridgeA.results).toHaveLength(planA.length);
    expect(bridgeB.results).toHaveLength(planB.length);
    expect(bridgeA.results.at(-1)).toMatchObject({ done: true, reward: 1 });
    expect(bridgeB.results.at(-1)).toMatchObject({ done: true, reward: 1 });
  });

  it('calls sent at once to one episode run in order', async () => {
    const [task] = await household.load({ split: 'valid_seen', limit: 1, seed: 3 });
    const plan = expertPlan(task as Task).slice(0, 3);
    const bridge = await createStepBridge(household, task as Task, 'ordered');
    const server = await serve({ o: bridge });
    const { client } = await open(server, 'o');
    const results = await Promise.all(
      plan.map((action) => client.callTool({ name: 'act', arguments: { action } })),
    );
    expect(results.map(textOf)).toEqual(bridge.results.map((r) => r.observation));
  });
});
