import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  checkRunStreams,
  type DamagedEntry,
  readLatestRecords,
  readRunStream,
  streamFiles,
  type Trajectory,
} from '@skillrl/core';
import { type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  everyFile,
  evolveConfig,
  finish,
  internalizeConfig,
  jsonResult as result,
  startCli,
  tempDir,
  writeConfig,
} from './support.js';

// A run directory whose streams hold a record the run cannot read back, through the built CLI as a user
// meets it: `skillrl resume` names each (file:line: reason) before anything runs or is written, and
// `skillrl resume <dir> --drop-damaged` moves them to damaged/ (exactly, with their origin) and completes the
// run, a dropped rollout run again. Also: a resume that cannot write names no flag `resume` lacks.

const cli = (args: string[]) => finish(startCli(args));

const agentAt = (baseURL: string) => ({
  name: 'openai',
  options: {
    model: 'fake-model',
    baseURL,
    timeoutMs: 2000,
    retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2 },
  },
});

/** Skill-R1 on household, one request at a time, every stream in small segments (most rollouts end up gzipped). */
const config = (dir: string, baseURL: string) =>
  writeConfig(
    dir,
    evolveConfig(
      {
        name: 'damaged',
        agent: agentAt(baseURL),
        maxSteps: 3,
        tasks: { split: 'train', limit: 2 },
        concurrency: 1,
        store: { segmentBytes: 4096 },
      },
      { generations: 2, candidates: 2, episodes: 2 },
    ),
    `damaged-${new URL(baseURL).port}.yaml`,
  );

/** Every file of a run directory and its bytes: what "nothing was written" compares. */
const contents = (dir: string) =>
  Object.fromEntries(everyFile(dir).map((f) => [relative(dir, f), readFileSync(f).toString('base64')]));

/** Replaces the line of a stream `pick` chooses, in whichever file (plain or gzip segment) holds it. */
function replaceLine(
  dir: string,
  stream: string,
  pick: (line: string) => boolean,
  make: (line: string) => string,
) {
  for (const file of streamFiles(dir, stream)) {
    const raw = readFileSync(file.path);
    const lines = (file.gzip ? gunzipSync(raw) : raw).toString('utf8').split('\n');
    const at = lines.findIndex((l) => l.length > 0 && pick(l));
    if (at === -1) continue;
    const before = lines[at] as string;
    lines[at] = make(before);
    const text = lines.join('\n');
    writeFileSync(file.path, file.gzip ? gzipSync(text) : text);
    return { file: relative(dir, file.path), lineNo: at + 1, before, after: lines[at] as string };
  }
  throw new Error(`no line of ${stream} matched`);
}

const kept = (dir: string, stream: string) =>
  readFileSync(join(dir, 'damaged', `${stream}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as DamagedEntry);

const GARBAGE = '<<<<<<< HEAD (a line pasted in by hand)';

let live: FakeOpenAIServer;
let work: string;
let reference: string;
/** The run stopped by its error budget in generation 2, before anything was damaged. */
let stoppedRun: string;

beforeAll(async () => {
  live = await startFakeOpenAI({ seed: 5, respond: () => 'Action: look' });
  work = tempDir('damaged');
  reference = join(work, 'reference');
  const ref = await cli(['run', config(work, live.baseURL), '--run-dir', reference, '--json']);
  expect(ref.code, ref.err).toBe(0);
  // Requests before generation 2 (one per step; one episode at a time), then into its second episode.
  const refRollouts = [...readRunStream<Trajectory>(reference, 'rollouts')];
  const before = refRollouts.filter((t) => /^g[01]\//.test(t.id)).reduce((n, t) => n + t.steps.length, 0);
  const dying = await startFakeOpenAI({ seed: 5, respond: () => 'Action: look', dieAtRequest: before + 4 });
  try {
    const stopped = await cli([
      'run',
      config(work, dying.baseURL),
      '--run-dir',
      join(work, 'stopped'),
      '--json',
    ]);
    expect(stopped.code, stopped.err).toBe(3);
    stoppedRun = result(stopped).dir as string;
    // 3 leaves a resumable run, and says how to continue it: with its own directory, never a placeholder.
    expect(result(stopped).error.message).toContain(`skillrl resume ${stoppedRun}`);
  } finally {
    await dying.close();
  }
}, 180_000);

afterAll(async () => {
  await live?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('skillrl resume with damaged records', () => {
  it('names each file and line before any work, exits 1 writing nothing; --drop-damaged keeps them under damaged/ and completes the run', async () => {
    const dir = join(work, 'run');
    cpSync(stoppedRun, dir, { recursive: true });
    // The first episode of generation 2 finished before the endpoint died: its record loses `steps`.
    const target = [...readRunStream<Trajectory>(dir, 'rollouts')].find(
      (t) => t.id.startsWith('g2/') && !t.error,
    );
    expect(target, 'an episode of generation 2 finished before the endpoint died').toBeDefined();
    const id = (target as Trajectory).id;
    const rollout = replaceLine(
      dir,
      'rollouts',
      (l) => (JSON.parse(l) as Trajectory).id === id,
      (l) => {
        const { steps: _steps, ...rest } = JSON.parse(l) as Trajectory;
        return JSON.stringify(rest);
      },
    );
    expect(rollout.file).toMatch(/^segments\/rollouts\.\d{6}\.n\d+\.jsonl\.gz$/);
    // A line that is not JSON between two records of another stream (a plain file).
    const units = readFileSync(join(dir, 'units.jsonl'), 'utf8').split('\n');
    expect(units.filter(Boolean).length).toBeGreaterThanOrEqual(2);
    writeFileSync(join(dir, 'units.jsonl'), [units[0], GARBAGE, ...units.slice(1)].join('\n'));
    const before = contents(dir);
    const requests = live.stats().received;

    const refused = await cli(['resume', dir, '--set', `agent.options.baseURL=${live.baseURL}`]);
    expect(refused.code, refused.err).toBe(1);
    expect(refused.err).toContain(
      `${dir} holds 2 damaged records that the run cannot read back (nothing was run or written):`,
    );
    expect(refused.err).toContain(
      `  ${rollout.file}:${rollout.lineNo}: not a valid trajectory: $.steps: is required but missing`,
    );
    expect(refused.err).toMatch(/ {2}units\.jsonl:2: not valid JSON \(/);
    expect(refused.err).toContain(`\`skillrl resume ${dir} --drop-damaged\``);
    expect(refused.err).not.toContain('<run-dir>');
    expect(contents(dir)).toEqual(before);
    expect(live.stats().received).toBe(requests);

    const json = await cli(['resume', dir, '--json']);
    expect(json.code).toBe(1);
    expect(result(json)).toMatchObject({
      ok: false,
      error: {
        code: 'SKILLRL_DAMAGED_RECORDS',
        dir,
        records: [
          {
            stream: 'rollouts',
            file: rollout.file,
            lineNo: rollout.lineNo,
            reason: 'not a valid trajectory: $.steps: is required but missing',
          },
          {
            stream: 'units',
            file: 'units.jsonl',
            lineNo: 2,
            reason: expect.stringMatching(/^not valid JSON/),
          },
        ],
      },
    });
    expect(contents(dir)).toEqual(before);

    const resumed = await cli([
      'resume',
      dir,
      '--drop-damaged',
      '--set',
      `agent.options.baseURL=${live.baseURL}`,
      '--json',
    ]);
    expect(resumed.code, resumed.err).toBe(0);
    expect(result(resumed)).toMatchObject({ ok: true, status: 'completed' });
    expect(resumed.err).toContain(
      `warning: moved 2 damaged records out of the streams, kept exactly in ${join(dir, 'damaged/rollouts.jsonl')}, ${join(dir, 'damaged/units.jsonl')}`,
    );
    // Nothing is lost: each line as it was, where it came from and why it was moved.
    expect(kept(dir, 'rollouts')).toEqual([
      expect.objectContaining({
        stream: 'rollouts',
        file: rollout.file,
        lineNo: rollout.lineNo,
        reason: 'not a valid trajectory: $.steps: is required but missing',
        text: rollout.after,
      }),
    ]);
    expect(kept(dir, 'units')).toEqual([
      expect.objectContaining({ file: 'units.jsonl', lineNo: 2, text: GARBAGE }),
    ]);
    // The segment kept its number, its name's count made right.
    const [, seq, n] = /\.(\d{6})\.n(\d+)\./.exec(rollout.file) as RegExpExecArray;
    const segment = streamFiles(dir, 'rollouts').find((f) => f.path.includes(`rollouts.${seq}.`));
    expect(segment?.records).toBe(Number(n) - 1);
    expect(checkRunStreams(dir)).toEqual([]);
    // The dropped rollout was run again, and the run is the one never interrupted: every rollout as it
    // finally ended, and every metric but the count of failed ones run again.
    const shape = (run: string) =>
      [...readLatestRecords<Trajectory>(run, 'rollouts')]
        .map((t) => ({
          id: t.id,
          reward: t.reward,
          actions: t.steps.map((s) => s.action),
          error: t.error?.code,
        }))
        .sort((a, b) => a.id.localeCompare(b.id));
    const rerun = shape(dir).find((t) => t.id === id);
    expect(rerun?.actions.length).toBeGreaterThan(0);
    expect(shape(dir)).toEqual(shape(reference));
    const summary = (run: string) => {
      const { rollouts_rerun: _r, ...rest } = JSON.parse(
        readFileSync(join(run, 'summary.json'), 'utf8'),
      ).metrics;
      return rest;
    };
    expect(summary(dir)).toEqual(summary(reference));
  }, 180_000);

  it('skillrl eval <run-dir> refuses the same way, naming the file and line and how to go on; nothing written', async () => {
    const dir = join(work, 'int');
    const ran = await cli([
      'run',
      writeConfig(work, internalizeConfig({ name: 'int' }), 'int.yaml'),
      '--run-dir',
      dir,
    ]);
    // Completed, or stopped by a health rule after a step (3 leaves a run all the same): either has advantages.
    expect([0, 3], ran.err).toContain(ran.code);
    const advantages = replaceLine(
      dir,
      'advantages',
      () => true,
      (l) => JSON.stringify({ ...JSON.parse(l), rows: [{ advantage: 0.5 }] }),
    );
    const before = contents(dir);
    const evaluated = await cli(['eval', dir, '--split', 'valid_seen']);
    expect(evaluated.code).toBe(1);
    expect(evaluated.err).toContain(
      `  ${advantages.file}:${advantages.lineNo}: not a valid advantages record: $.rows[0]`,
    );
    expect(evaluated.err).toContain(`\`skillrl resume ${dir} --drop-damaged\``);
    expect(contents(dir)).toEqual(before);
  }, 120_000);
});

/** A tmpfs mounted for one test, or undefined where this user cannot mount (not root). */
function mountTmpfs(options: string): string | undefined {
  const at = mkdtempSync(join(tmpdir(), 'skillrl-damaged-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at], { stdio: 'ignore' });
    return at;
  } catch {
    rmSync(at, { recursive: true, force: true });
    return undefined;
  }
}

const canMount = (() => {
  const at = mountTmpfs('size=16k');
  if (at) {
    execFileSync('umount', ['-l', at]);
    rmSync(at, { recursive: true, force: true });
  }
  return at !== undefined;
})();

describe('skillrl resume on a run directory it cannot write', () => {
  it.skipIf(!canMount)(
    'names the cause and `skillrl resume <the run dir>`, never a flag resume does not have (where this user can mount a tmpfs: root)',
    async () => {
      const at = mountTmpfs('size=16m') as string;
      try {
        const dir = join(at, 'stopped');
        cpSync(stoppedRun, dir, { recursive: true });
        execFileSync('mount', ['-o', 'remount,ro', at]);
        const r = await cli(['resume', dir, '--set', `agent.options.baseURL=${live.baseURL}`]);
        expect(r.code).toBe(1);
        expect(r.err).toMatch(/the file system is read-only \(EROFS\)/);
        expect(r.err).not.toContain('--run-dir');
        expect(r.err).toContain(`continue the run with \`skillrl resume ${dir}\``);
      } finally {
        execFileSync('umount', ['-l', at]);
        rmSync(at, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
