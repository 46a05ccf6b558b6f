import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Trajectory } from '@skillrl/core';
import { createRng, readRunStream, streamFiles } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { evolveConfig, finish, internalizeConfig, startCli, tempDir, writeConfig } from './support.js';

/** Records of a run directory's stream, in either layout: closed segments (counted by name) and the open file. */
function lines(runDir: string, stream = 'rollouts'): number {
  let n = 0;
  for (const file of streamFiles(runDir, stream)) {
    if (file.records !== undefined) n += file.records;
    else {
      try {
        n += readFileSync(file.path, 'utf8').split('\n').filter(Boolean).length;
      } catch {
        // Renamed into a segment by a rotation between listing and reading: counted at the next poll.
        return 0;
      }
    }
  }
  return n;
}

const records = <T>(runDir: string, stream: string): T[] => [...readRunStream<T>(runDir, stream)];

/** Starts the CLI and SIGKILLs it as soon as rollouts.jsonl holds `after` records (or it exits first). */
async function killAfter(args: string[], runDir: string, after: number): Promise<boolean> {
  const child = startCli(args);
  const done = finish(child);
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  while (!exited) {
    if (lines(runDir) >= after) {
      child.kill('SIGKILL');
      break;
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  const result = await done;
  return result.signal === 'SIGKILL';
}

function files(dir: string, under: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const p = join(d, entry);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  if (existsSync(join(dir, under))) walk(join(dir, under));
  return out;
}

/** What must match between an interrupted-and-resumed run and an uninterrupted one. */
function outcome(run: string) {
  const rollouts = records<Trajectory>(run, 'rollouts')
    .map((t) => ({
      id: t.id,
      condition: t.condition,
      reward: t.reward,
      passed: t.verdict.passed,
      actions: t.steps.map((s) => s.action),
      skill: t.skill?.hash ?? null,
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
  const summary = JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8'));
  const advantages = records<{ key: string }>(run, 'advantages').sort((a, b) =>
    String(a.key).localeCompare(String(b.key)),
  );
  return { rollouts, summary, skills: files(run, 'skills'), advantages };
}

async function checkKillResume(name: string, config: Record<string, unknown>, kills: number, seed: number) {
  const dir = tempDir(`kill-${name}`);
  const reference = writeConfig(dir, { ...config, name: `${name}-reference` }, 'reference.yaml');
  const ref = await finish(startCli(['run', reference, '--json']));
  expect(ref.code, ref.out + ref.err).toBe(0);
  const refRun = join(dir, 'runs', `${name}-reference`);
  const total = lines(refRun);
  const expected = outcome(refRun);

  const killedConfig = writeConfig(dir, { ...config, name: `${name}-killed` }, 'killed.yaml');
  const run = join(dir, 'runs', `${name}-killed`);
  // Kill points drawn from the seed, increasing, each inside the run.
  const rng = createRng(seed);
  const points = Array.from({ length: kills }, () => 1 + rng.int(total - 1)).sort((a, b) => a - b);
  let killed = 0;
  for (let i = 0; i < points.length; i++) {
    const args = i === 0 ? ['run', killedConfig, '--json'] : ['resume', run, '--json'];
    if (await killAfter(args, run, points[i] as number)) killed++;
  }
  expect(killed).toBeGreaterThan(0);
  const resumed = await finish(startCli(['resume', run, '--json']));
  expect(resumed.code, resumed.out + resumed.err).toBe(0);
  const got = outcome(run);
  expect(got.rollouts).toHaveLength(total);
  expect(got.rollouts).toEqual(expected.rollouts);
  expect(got.summary).toEqual(expected.summary);
  expect(got.skills).toEqual(expected.skills);
  expect(got.advantages).toEqual(expected.advantages);
  // No event written twice: one rollout event per rollout, one checkpoint event per unit.
  const events = records<{ type: string }>(run, 'events');
  const refEvents = records<{ type: string }>(refRun, 'events');
  expect(events.filter((e) => e.type === 'rollout')).toHaveLength(total);
  const kinds = (list: { type: string }[]) =>
    list
      .filter((e) => e.type !== 'run:end')
      .map((e) => e.type)
      .sort();
  expect(kinds(events)).toEqual(kinds(refEvents));
  return { points, killed, run };
}

describe('SIGKILL then `skillrl resume` equals the uninterrupted run', () => {
  it('internalize (SKILLC), three seeded kill points', async () => {
    const { killed } = await checkKillResume('int', internalizeConfig(), 3, 101);
    expect(killed).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('evolve (Skill-R1, grpo mode), three seeded kill points', async () => {
    const { killed } = await checkKillResume('evo', evolveConfig({}, { generations: 3 }), 3, 202);
    expect(killed).toBeGreaterThanOrEqual(2);
  }, 120_000);

  it('internalize with the tfjs policy and trainer (trainer rebuilt by replay), two kill points', async () => {
    // Small segments, so the replay reads its batches back from gzip segments and the open file alike.
    const config = internalizeConfig(
      { agent: 'skill-reading', maxSteps: 30, store: { segmentBytes: 256 * 1024 } },
      {
        steps: 3,
        tasksPerStep: 2,
        groupSize: 4,
        validation: { split: 'valid_seen', limit: 3 },
        trainer: 'tfjs',
      },
    );
    const { killed } = await checkKillResume('tfjs', config, 2, 404);
    expect(killed).toBeGreaterThanOrEqual(1);
  }, 180_000);

  it('internalize with rotation into gzip segments at every few rollouts and one checkpoint kept, three kill points', async () => {
    // 4 KiB segments: kills land in appends, rotations and compressions, and resume reads every layout state.
    const config = internalizeConfig({ store: { segmentBytes: 4096, keepCheckpoints: 1 } });
    const { killed, run } = await checkKillResume('seg', config, 3, 505);
    expect(killed).toBeGreaterThanOrEqual(2);
    expect(readdirSync(join(run, 'segments')).some((f) => f.endsWith('.jsonl.gz'))).toBe(true);
    expect(readdirSync(join(run, 'checkpoints')).filter((f) => f.startsWith('snapshot-'))).toHaveLength(1);
  }, 120_000);

  it('evolve with the trainable tfjs step editor (state saved as a checkpoint folder), two kill points', async () => {
    const config = evolveConfig(
      {},
      { generations: 2, generator: { name: 'step-editor', options: { hiddenSize: 16 } } },
    );
    const { killed } = await checkKillResume('step', config, 2, 303);
    expect(killed).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
