import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Trajectory } from '@skillrl/core';
import { createRng } from '@skillrl/core';
import { type FakeChatRequest, type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evolveConfig, finish, startCli, tempDir, writeConfig } from './support.js';

// An LLM editor that does not write valid SKILL.md files, against a real local OpenAI-compatible server,
// through the built CLI as a user runs it.

function readJsonl<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

const GARBAGE = 'Sure! I would keep the skill as it is and be careful.';
const skillReply = (name: string) =>
  `Revised.\n\n\`\`\`markdown\n---\nname: ${name}\ndescription: Steps for household tasks.\n---\n\n1. go to the receptacle\n2. take the object\n\`\`\`\n`;

let server: FakeOpenAIServer;
/** `broken`: the editor never writes a SKILL.md; `fixed`: it does. */
let mode: 'broken' | 'fixed' = 'broken';

beforeAll(async () => {
  server = await startFakeOpenAI({
    latencyMs: 20,
    respond: (_request, ctx) =>
      mode === 'broken' ? GARBAGE : skillReply(`household-steps-${ctx.index % 3}`),
  });
});
afterAll(async () => {
  await server.close();
});

const editor = (options: Record<string, unknown> = {}) => ({
  name: 'llm-editor',
  options: {
    model: { model: 'fake-model', baseURL: server.baseURL, retry: { maxRetries: 1, baseDelayMs: 1 } },
    maxRepairs: 0,
    ...options,
  },
});
const editorBodies = (from = 0) => server.requests.slice(from).map((r) => r.body as FakeChatRequest);
/** The request seed the LLM editor sends for a context seed (its first round, `n` sampling). */
const requestSeed = (contextSeed: number, generation: number) =>
  createRng(contextSeed).fork(`llm-editor/g${generation}`).seedFor('round/0') % 2_147_483_648;

describe('an LLM editor that never writes a valid SKILL.md', () => {
  it('initialSkill: none: the run completes, each task runs skill-free, every rejection is stored with its reason', async () => {
    mode = 'broken';
    const dir = tempDir('editor-none');
    const config = evolveConfig(
      { name: 'editor-none' },
      {
        mode: 'inference',
        initialSkill: 'none',
        generations: 2,
        candidates: 2,
        episodes: 1,
        generator: editor(),
      },
    );
    const path = writeConfig(dir, config);
    const from = server.requests.length;
    const r = await finish(startCli(['run', path, '--json']));
    expect(r.code, r.out + r.err).toBe(0);
    const run = join(dir, 'runs', 'editor-none');
    const summary = JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8'));
    // 2 tasks × 2 generations, each 3 calls (the first and 2 retries) with two rejected replies each (K = 2;
    // the fake server ignores n, so each call is two requests).
    expect(summary.metrics).toMatchObject({ fallbacks: 4, editor_calls: 12, rejected_proposals: 24 });
    expect(editorBodies(from)).toHaveLength(24);
    const records = readJsonl<{
      fallback?: string;
      candidates: unknown[];
      attempts: { rejections: { kind: string; reason: string; excerpt: string }[] }[];
    }>(join(run, 'candidates.jsonl'));
    expect(records.map((x) => [x.fallback, x.candidates.length, x.attempts.length])).toEqual(
      Array.from({ length: 4 }, () => ['no-skill', 0, 3]),
    );
    expect(records[0]?.attempts[0]?.rejections[0]).toEqual({
      kind: 'reply',
      reason: 'no SKILL.md in the reply (expected a ```markdown block or `---` frontmatter)',
      excerpt: GARBAGE,
      attempt: 0,
    });
    // The retries told the editor what was wrong.
    const prompts = editorBodies(from).map((b) => String(b.messages?.[1]?.content));
    expect(prompts.filter((p) => p.includes('## What was wrong with your earlier replies'))).toHaveLength(16);
    const rollouts = readJsonl<Trajectory>(join(run, 'rollouts.jsonl'));
    expect(rollouts).toHaveLength(4);
    expect(rollouts.every((t) => t.skill === undefined && t.condition === 0)).toBe(true);
  }, 60_000);

  it('stopped mid-generation and resumed against a fixed endpoint: answered requests are not sent again', async () => {
    mode = 'broken';
    const dir = tempDir('editor-resume');
    const config = evolveConfig(
      { name: 'editor-resume', concurrency: 1 },
      {
        mode: 'inference',
        initialSkill: 'none',
        generations: 1,
        candidates: 2,
        episodes: 1,
        generator: editor(),
      },
    );
    const path = writeConfig(dir, config);
    const run = join(dir, 'runs', 'editor-resume');
    const from = server.requests.length;
    const child = startCli(['run', path, '--json']);
    const done = finish(child);
    let exited = false;
    child.on('exit', () => {
      exited = true;
    });
    while (!exited && readJsonl(join(run, 'rejections.jsonl')).length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    child.kill('SIGKILL');
    expect((await done).signal).toBe('SIGKILL');
    const stored = readJsonl<{ taskId: string; attempt: number; seed: number; rejections: unknown[] }>(
      join(run, 'rejections.jsonl'),
    );
    expect(stored.length).toBeGreaterThanOrEqual(2);

    mode = 'fixed';
    const resumedFrom = server.requests.length;
    const resumed = await finish(startCli(['resume', run, '--json']));
    expect(resumed.code, resumed.out + resumed.err).toBe(0);
    const after = editorBodies(resumedFrom);
    // No request whose answer is on disk went out again.
    const sentAgain = after.filter((b) => stored.some((s) => requestSeed(s.seed, 1) === b.seed));
    expect(sentAgain).toEqual([]);
    // The first stored task continues with its next attempt, told what was wrong with the earlier ones.
    const first = stored[0] as { taskId: string };
    const mine = stored.filter((s) => s.taskId === first.taskId);
    const earlier = mine.reduce((n, s) => n + s.rejections.length, 0);
    const next = createRng(7).fork('g1').fork(first.taskId).seedFor(`retry/${mine.length}`);
    const retry = after.find((b) => b.seed === requestSeed(next, 1));
    if (mine.length < 3) {
      expect(String(retry?.messages?.[1]?.content)).toContain(
        `${earlier} earlier replies for this generation could not be used`,
      );
    }
    expect(editorBodies(from).length).toBe(resumedFrom - from + after.length);
    const summary = JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8'));
    expect(summary.metrics.rejected_proposals).toBeGreaterThanOrEqual(stored.length);
    const records = readJsonl<{ taskId: string; fallback?: string; attempts: unknown[] }>(
      join(run, 'candidates.jsonl'),
    );
    expect(records).toHaveLength(2);
    // The fixed endpoint's skills are used from now on.
    expect(records.some((x) => x.fallback === undefined)).toBe(true);
  }, 60_000);
});
