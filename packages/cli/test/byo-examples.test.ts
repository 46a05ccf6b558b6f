import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Trajectory } from '@skillrl/core';
import { readRunStream, readSkillFolder } from '@skillrl/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, finish, jsonResult, tempDir } from './support.js';

// The bring-your-own-agent examples (examples/byo-*) run the way their READMEs say, through the skillrl CLI,
// with only the model replaced by the testkit's fake server (examples/byo-shared/with-fake.mjs): each program
// runs for real under Node 24 with its real framework packages (openai 7, AI SDK 7, LangChain 1.x; Python's
// standard library), behind skillrl's proxy and MCP server.
const ROOT = resolve(__dirname, '../../..');
const WITH_FAKE = join(ROOT, 'examples/byo-shared/with-fake.mjs');
const EXAMPLES = ['byo-openai-node', 'byo-ai-sdk', 'byo-langchain', 'byo-python'];

let node24 = '';
beforeAll(() => {
  // .ci/run exports it; elsewhere scripts/node24.mjs installs Node 24 from the npm registry (once) and says where.
  node24 =
    process.env.SKILLRL_NODE24 ||
    execFileSync(process.execPath, [join(ROOT, 'scripts/node24.mjs')], { encoding: 'utf8' }).trim();
  for (const example of EXAMPLES.filter((e) => e !== 'byo-python')) {
    if (!existsSync(join(ROOT, 'examples', example, 'node_modules'))) {
      throw new Error(
        `examples/${example} has no node_modules: run npm ci there with Node 24 first (as .ci/run does)`,
      );
    }
  }
});

function withFake(args: string[]): Promise<CliRun> {
  const child = spawn(process.execPath, [WITH_FAKE, ...args], {
    cwd: ROOT,
    env: { ...process.env, SKILLRL_NODE24: node24 },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return finish(child);
}

const rolloutsOf = (dir: string) => [...readRunStream<Trajectory>(dir, 'rollouts')];
const callsOf = (t: Trajectory) =>
  t.steps.flatMap((s) => (Array.isArray(s.info?.calls) ? (s.info.calls as { stream: boolean }[]) : []));

describe('the bring-your-own-agent examples, through the CLI', () => {
  for (const example of EXAMPLES) {
    it(`${example}: run.yaml plays every episode without an error, each model call recorded`, async () => {
      const dir = join(tempDir(`byo-${example}`), 'run');
      const run = await withFake([`examples/${example}/run.yaml`, 'run', '--', '--json', '--run-dir', dir]);
      expect(run.code, run.out + run.err).toBe(0);
      const result = jsonResult(run);
      expect(result.status).toBe('completed');
      const rollouts = rolloutsOf(dir);
      expect(rollouts.length).toBeGreaterThan(0);
      for (const t of rollouts) {
        expect(t.error, JSON.stringify(t.error)).toBeUndefined();
        expect(callsOf(t).length, t.id).toBeGreaterThan(0);
      }
      const mean = rollouts.reduce((s, t) => s + t.reward, 0) / rollouts.length;
      // Household: the fake player wins every task; QA: three of the four questions are answerable.
      expect(mean).toBeGreaterThanOrEqual(
        example.includes('langchain') || example.includes('python') ? 0.75 : 1,
      );
      if (example === 'byo-ai-sdk') {
        // The AI SDK streams every call: the proxy passed the streams through and recorded them.
        expect(rollouts.every((t) => callsOf(t).every((c) => c.stream))).toBe(true);
      }
    }, 180_000);
  }

  it('byo-ai-sdk eval: the with-skill column is above the without column (the skill reaches the model only when z = 1)', async () => {
    const run = await withFake([
      'examples/byo-ai-sdk/run.yaml',
      'eval',
      '--skill-aware',
      '--',
      '--json',
      '--limit',
      '6',
    ]);
    expect(run.code, run.out + run.err).toBe(0);
    const { overall } = jsonResult(run);
    // Six tasks, one episode each per condition (about 1 s of CPU an episode: Node 24 and the AI SDK start).
    expect(overall.episodes).toBe(12);
    expect(overall.withSkill, JSON.stringify(overall)).toBeGreaterThan(overall.withoutSkill);
  }, 180_000);

  it('byo-ai-sdk evolve.yaml: Skill-R1 evolves the skill this program reads; fresh episodes beat generation 0; the skill exports as an Agent Skills folder', async () => {
    const base = tempDir('byo-evolve');
    const dir = join(base, 'run');
    const run = await withFake([
      'examples/byo-ai-sdk/evolve.yaml',
      'run',
      '--skill-aware',
      '--',
      '--json',
      '--run-dir',
      dir,
    ]);
    expect(run.code, run.out + run.err).toBe(0);
    const { metrics } = jsonResult(run);
    expect(metrics.rollouts_errored).toBe(0);
    expect(metrics.final_eval_reward).toBeGreaterThan(metrics.generation_0_mean);
    // The final evaluation's episodes ran the program with each task's evolved skill as a folder; with
    // injectSkill: none the skill's lines reach the model only because the program read them.
    const finals = rolloutsOf(dir).filter((t) => t.id.startsWith('final/'));
    expect(finals.length).toBeGreaterThan(0);
    const out = join(base, 'skills');
    const exported = execFileSync(process.execPath, ['export-skills.mjs', dir, out], {
      cwd: join(ROOT, 'examples/byo-ai-sdk'),
      encoding: 'utf8',
    });
    expect(exported).toContain('exported household-search');
    const [skill] = readSkillFolder(out);
    expect(skill?.name).toBe('household-search');
    const evolvedLines = (skill?.body ?? '').split('\n').filter((l) => l.startsWith('- '));
    expect(evolvedLines.length).toBeGreaterThan(1);
    const seen = finals.flatMap((t) => t.steps.map((s) => JSON.stringify(s.info?.calls ?? [])));
    expect(seen.some((text) => text.includes('## Skill: household-search'))).toBe(true);
  }, 300_000);
});
