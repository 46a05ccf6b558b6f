import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent, Trajectory } from '@skillrl/core';
import { parseSkill } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { evolve } from '../src/evolve/evolve.js';
import type { RunProgress } from '../src/run/run-types.js';
import { evolveConfig, FIXTURES, tempDir, writeConfig } from './support.js';

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

describe('evolve offline', () => {
  it('runs generations 0..G, scores candidates with skill-r1 and writes the run directory', async () => {
    const dir = tempDir('evolve');
    const config = evolveConfig();
    const configPath = writeConfig(dir, config);
    const result = await evolve(config as never, { configPath });
    const run = join(dir, 'runs', 'evolve-test');
    expect(result.dir).toBe(run);
    const rollouts = readJsonl<Trajectory>(join(run, 'rollouts.jsonl'));
    // 2 tasks × s0 (2 episodes) + 2 generations × 2 tasks × 3 candidates × 2 episodes = 4 + 24
    expect(rollouts).toHaveLength(28);
    expect(new Set(rollouts.map((r) => r.id)).size).toBe(28);
    expect(result.metrics.rollouts).toBe(28);
    const events = readJsonl<RunEvent>(join(run, 'events.jsonl'));
    expect(events[0]?.type).toBe('run:start');
    expect(events[events.length - 1]?.type).toBe('run:end');
    const generations = events.filter((e) => e.type === 'generation');
    expect(generations).toHaveLength(2 * 3);
    expect(events.filter((e) => e.type === 'checkpoint')).toHaveLength(3);
    // Each generation's carried skill is on disk and parses as a SKILL.md.
    for (const g of ['0', '1', '2', 'final']) {
      const tasks = readdirSync(join(run, 'skills', g));
      expect(tasks).toHaveLength(2);
      for (const t of tasks) {
        const [name] = readdirSync(join(run, 'skills', g, t));
        const skill = parseSkill(readFileSync(join(run, 'skills', g, t, name as string, 'SKILL.md'), 'utf8'));
        expect(skill.name).toBe(name);
      }
    }
    const config2 = JSON.parse(readFileSync(join(run, 'config.json'), 'utf8'));
    expect(config2.method).toBe('evolve');
    // The editor learned: the advantages stream has K rows per task per generation, centred per task.
    const adv = readJsonl<{ unit: string; rows: { taskId: string; advantage: number; reward: number }[] }>(
      join(run, 'advantages.jsonl'),
    );
    expect(adv.map((a) => a.unit)).toEqual(['g1', 'g2']);
    const g1 = adv[0]?.rows ?? [];
    for (const taskId of new Set(g1.map((r) => r.taskId))) {
      const mine = g1.filter((r) => r.taskId === taskId);
      const meanReward = mine.reduce((a, r) => a + r.reward, 0) / mine.length;
      const meanAdv = mine.reduce((a, r) => a + r.advantage, 0) / mine.length;
      // mean_i A = mean_i A_intra + λ·A_inter = 0 + (mean_i r_1 − r_0)
      const s0 = rollouts.filter((r) => r.taskId === taskId && r.generation === 0);
      const s0Mean = s0.reduce((a, r) => a + r.reward, 0) / s0.length;
      expect(meanAdv).toBeCloseTo(meanReward - s0Mean, 10);
    }
    expect(existsSync(join(run, 'summary.json'))).toBe(true);
  });

  it('the no-skill baseline runs M skill-free episodes per task and nothing else', async () => {
    const dir = tempDir('evolve-noskill');
    const config = evolveConfig(
      { name: 'no-skill' },
      { variant: 'no-skill', generator: undefined, mode: undefined },
    );
    const configPath = writeConfig(dir, config);
    const result = await evolve(config as never, { configPath });
    const rollouts = readJsonl<Trajectory>(join(result.dir, 'rollouts.jsonl'));
    expect(rollouts).toHaveLength(4);
    expect(rollouts.every((r) => r.condition === 0 && r.skill === undefined)).toBe(true);
  });

  it('vanilla-grpo runs one generation with A_intra only (λ = 0: advantages centred per task)', async () => {
    const dir = tempDir('evolve-vanilla');
    const config = evolveConfig({ name: 'vanilla' }, { variant: 'vanilla-grpo', generations: undefined });
    const configPath = writeConfig(dir, config);
    const result = await evolve(config as never, { configPath });
    const adv = readJsonl<{ unit: string; rows: { taskId: string; advantage: number }[] }>(
      join(result.dir, 'advantages.jsonl'),
    );
    expect(adv.map((a) => a.unit)).toEqual(['g1']);
    for (const taskId of new Set(adv[0]?.rows.map((r) => r.taskId))) {
      const sum = (adv[0]?.rows ?? [])
        .filter((r) => r.taskId === taskId)
        .reduce((a, r) => a + r.advantage, 0);
      expect(sum).toBeCloseTo(0, 10);
    }
    // It starts from s0 like every variant with an editor: 2 tasks × 2 episodes under s0, then 2 tasks × 3
    // candidates × 2 episodes; the editor revised each task's s0.
    expect(result.metrics.rollouts).toBe(16);
    const rollouts = readJsonl<Trajectory>(join(result.dir, 'rollouts.jsonl'));
    const g0 = rollouts.filter((r) => r.generation === 0);
    expect(g0).toHaveLength(4);
    expect(g0.every((r) => r.skill !== undefined)).toBe(true);
    expect(result.metrics.generation_0_mean).toBeTypeOf('number');
    expect(result.metrics.generation_1_mean).toBeTypeOf('number');
  });

  it('finalEpisodes re-runs each task under its final carried skill: an unbiased final_eval_reward', async () => {
    const dir = tempDir('evolve-final');
    const config = evolveConfig({ name: 'final' }, { finalEpisodes: 3 });
    const configPath = writeConfig(dir, config);
    const result = await evolve(config as never, { configPath });
    const rollouts = readJsonl<Trajectory>(join(result.dir, 'rollouts.jsonl'));
    const both = rollouts.filter((r) => r.id.startsWith('final/'));
    const final = both.filter((r) => r.condition === 1);
    // 2 tasks × 3 fresh episodes with the skill and 3 without (finalPaired), after the 28 of the loop.
    expect(final).toHaveLength(6);
    expect(both.filter((r) => r.condition === 0 && r.skill === undefined)).toHaveLength(6);
    expect(rollouts).toHaveLength(40);
    const meanReward = final.reduce((a, r) => a + r.reward, 0) / final.length;
    expect(result.metrics.final_eval_reward).toBeCloseTo(meanReward, 12);
    expect(result.metrics.final_eval_episodes).toBe(6);
    // The final skills' utility, paired by task: the mean of each task's with − without success.
    const rate = (xs: Trajectory[]) => xs.filter((r) => r.verdict.passed).length / xs.length;
    const gaps = [...new Set(both.map((r) => r.taskId))].map(
      (t) =>
        rate(final.filter((r) => r.taskId === t)) -
        rate(both.filter((r) => r.taskId === t && r.condition === 0)),
    );
    expect(result.metrics.final_utility_gap).toBeCloseTo((gaps[0]! + gaps[1]!) / 2, 12);
    expect(result.metrics.final_utility_pairs).toBe(2);
    expect(result.metrics.final_without_success).toBeCloseTo(rate(both.filter((r) => r.condition === 0)), 12);
    // finalPaired: false runs the skill's episodes alone, the same ones.
    const alone = evolveConfig({ name: 'final-alone' }, { finalEpisodes: 3, finalPaired: false });
    const aloneResult = await evolve(alone as never, {
      configPath: writeConfig(tempDir('evolve-final-alone'), alone),
    });
    const aloneFinal = readJsonl<Trajectory>(join(aloneResult.dir, 'rollouts.jsonl')).filter((r) =>
      r.id.startsWith('final/'),
    );
    expect(aloneFinal.map((r) => [r.id, r.reward])).toEqual(final.map((r) => [r.id, r.reward]));
    expect(aloneResult.metrics.final_utility_gap).toBeUndefined();
    // Each task ran under the skill written to skills/final/ for it.
    for (const taskId of new Set(final.map((r) => r.taskId))) {
      const slugDirs = readdirSync(join(result.dir, 'skills', 'final'));
      const names = slugDirs.flatMap((t) => readdirSync(join(result.dir, 'skills', 'final', t)));
      const used = final.filter((r) => r.taskId === taskId).map((r) => r.skill?.name);
      expect(new Set(used).size).toBe(1);
      expect(names).toContain(used[0]);
    }
  });

  it('heldOut: after training, the frozen editor runs the same loop on unseen tasks from s0', async () => {
    const dir = tempDir('evolve-heldout');
    const config = evolveConfig(
      { name: 'heldout' },
      { finalEpisodes: 2, heldOut: { split: 'valid_unseen', limit: 3 } },
    );
    const configPath = writeConfig(dir, config);
    const result = await evolve(config as never, { configPath });
    const rollouts = readJsonl<Trajectory>(join(result.dir, 'rollouts.jsonl'));
    const trainTasks = new Set(rollouts.filter((r) => r.id.startsWith('g')).map((r) => r.taskId));
    const held = rollouts.filter((r) => r.id.startsWith('h'));
    // 3 tasks: s0 × 2 episodes, then 2 generations × 3 candidates × 2 episodes, then 2 final episodes each,
    // with the skill and without.
    expect(held).toHaveLength(3 * 2 + 2 * 3 * 3 * 2 + 3 * 2 * 2);
    expect(held.some((r) => trainTasks.has(r.taskId))).toBe(false);
    expect(held.filter((r) => r.id.startsWith('h0/')).every((r) => r.skill !== undefined)).toBe(true);
    // The editor learned only from training generations: one update record per training generation.
    const adv = readJsonl<{ unit: string }>(join(result.dir, 'advantages.jsonl')).map((a) => a.unit);
    expect(adv).toEqual(['g1', 'g2', 'h1', 'h2']);
    const events = readJsonl<RunEvent>(join(result.dir, 'events.jsonl'));
    const generationTasks = new Set(events.filter((e) => e.type === 'generation').map((e) => e.taskId));
    expect([...generationTasks].every((t) => trainTasks.has(t))).toBe(true);
    const final = held.filter((r) => r.id.startsWith('hfinal/') && r.condition === 1);
    expect(result.metrics.heldout_final_eval_success).toBeCloseTo(
      final.filter((r) => r.verdict.passed).length / final.length,
      12,
    );
    expect(result.metrics.heldout_generation_0_mean).toBeTypeOf('number');
    expect(result.metrics.heldout_generation_2_mean).toBeTypeOf('number');
    expect(result.metrics.heldout_tasks).toBe(3);
    // Held-out tasks that are also training tasks are refused before any rollout.
    const clash = evolveConfig({ name: 'clash' }, { heldOut: { split: 'train', limit: 2, seed: 7 } });
    await expect(
      evolve(clash as never, { configPath: writeConfig(tempDir('evolve-clash'), clash) }),
    ).rejects.toThrow(/evolve\.heldOut/);
  });

  it('an aborted run resumes in-process: progress ends at the total and finished rollouts are reused', async () => {
    const dir = tempDir('evolve-abort');
    const config = evolveConfig({ name: 'abort' });
    const configPath = writeConfig(dir, config);
    const controller = new AbortController();
    const first: RunProgress[] = [];
    const error = await evolve(config as never, {
      configPath,
      signal: controller.signal,
      onProgress: (p) => {
        first.push(p);
        if (p.done === 13) controller.abort(new Error('stop here'));
      },
    }).catch((e: unknown) => e);
    expect(String(error)).toContain('stop here');
    const written = readJsonl<Trajectory>(join(dir, 'runs', 'abort', 'rollouts.jsonl')).length;
    expect(written).toBeGreaterThanOrEqual(13);
    expect(written).toBeLessThan(28);
    const second: RunProgress[] = [];
    const result = await evolve(config as never, {
      configPath,
      resume: true,
      onProgress: (p) => second.push(p),
    });
    const last = second[second.length - 1] as RunProgress;
    expect(last.done).toBe(28);
    expect(last.total).toBe(28);
    expect(result.ran + written).toBe(28);
    // Rollouts of the interrupted generation were reused, not run again.
    expect(result.reused).toBeGreaterThan(0);
    expect(readJsonl<Trajectory>(join(result.dir, 'rollouts.jsonl'))).toHaveLength(28);
  });

  it('initialSkill: none skips generation 0; A_inter is 0 for generation 1', async () => {
    const dir = tempDir('evolve-nos0');
    const config = evolveConfig({ name: 'no-s0' }, { initialSkill: 'none', generations: 1, carry: 'sample' });
    const configPath = writeConfig(dir, config);
    const result = await evolve(config as never, { configPath });
    const rollouts = readJsonl<Trajectory>(join(result.dir, 'rollouts.jsonl'));
    expect(rollouts.every((r) => r.generation === 1)).toBe(true);
    const [adv] = readJsonl<{ rows: { taskId: string; advantage: number }[] }>(
      join(result.dir, 'advantages.jsonl'),
    );
    for (const taskId of new Set(adv?.rows.map((r) => r.taskId))) {
      const sum = (adv?.rows ?? []).filter((r) => r.taskId === taskId).reduce((a, r) => a + r.advantage, 0);
      expect(sum).toBeCloseTo(0, 10);
    }
  });

  it('an editor proposing only invalid SKILL.md files is retried, then each task keeps s0: stored, counted, run completes', async () => {
    const dir = tempDir('evolve-bad');
    const config = evolveConfig(
      { name: 'bad' },
      { generator: { package: FIXTURES, export: 'createVocabularyGenerator', options: { badNames: true } } },
    );
    const configPath = writeConfig(dir, config);
    const phases: string[] = [];
    const result = await evolve(config as never, { configPath, onProgress: (p) => phases.push(p.phase) });
    // 2 tasks × 2 generations fell back after 3 calls of 3 invalid candidates each.
    expect(result.metrics).toMatchObject({
      fallbacks: 4,
      editor_calls: 12,
      editor_failed_calls: 0,
      rejected_proposals: 36,
    });
    const records = readJsonl<{
      key: string;
      candidates: { skill: { name: string }; info: Record<string, unknown> }[];
      attempts: { attempt: number; accepted: number; rejections: { kind: string; reason: string }[] }[];
      fallback?: string;
    }>(join(result.dir, 'candidates.jsonl'));
    expect(records).toHaveLength(4);
    for (const r of records) {
      expect(r.fallback).toBe('current-skill');
      expect(r.candidates).toHaveLength(1);
      expect(r.candidates[0]?.info.fallback).toBe('current-skill');
      expect(r.attempts.map((a) => a.attempt)).toEqual([0, 1, 2]);
      expect(r.attempts[0]?.rejections[0]).toMatchObject({
        kind: 'invalid',
        reason: expect.stringMatching(/^\[name-charset\] name/),
      });
    }
    // Each failed call also went to rejections.jsonl as it finished (what a resumed run re-reads).
    const rejections = readJsonl<{ key: string; attempt: number }>(join(result.dir, 'rejections.jsonl'));
    expect(rejections.map((r) => r.key).sort()).toEqual(
      records.flatMap((r) => [0, 1, 2].map((a) => `${r.key}/${a}`)).sort(),
    );
    // The carried skill is s0, and the episodes ran under it.
    const rollouts = readJsonl<Trajectory>(join(result.dir, 'rollouts.jsonl'));
    const s0 = new Map(rollouts.filter((r) => r.generation === 0).map((r) => [r.taskId, r.skill?.name]));
    for (const r of rollouts.filter((t) => t.generation === 1)) expect(r.skill?.name).toBe(s0.get(r.taskId));
    const events = readJsonl<RunEvent>(join(result.dir, 'events.jsonl'));
    const gen = events.filter((e) => e.type === 'generation' && e.generation === 1);
    expect(gen.map((e) => (e.type === 'generation' ? e.metrics : undefined))).toEqual([
      expect.objectContaining({ fallback: 1, rejected_proposals: 9, editor_calls: 3 }),
      expect.objectContaining({ fallback: 1, rejected_proposals: 9, editor_calls: 3 }),
    ]);
    // The progress line showed the proposal phase and what went wrong.
    expect(phases).toContain('generation 1/2: proposals 1/2 (9 rejected, 1 fallback)');
    expect(phases).toContain('generation 2/2: rollouts (18 rejected, 2 fallbacks)');
  });

  it('with initialSkill: none, tasks that get nothing valid run their episodes without a skill', async () => {
    const dir = tempDir('evolve-bad-nos0');
    const config = evolveConfig(
      { name: 'bad-nos0' },
      {
        initialSkill: 'none',
        proposalRetries: 0,
        generator: { package: FIXTURES, export: 'createVocabularyGenerator', options: { badNames: true } },
      },
    );
    const configPath = writeConfig(dir, config);
    const result = await evolve(config as never, { configPath });
    expect(result.metrics).toMatchObject({ fallbacks: 4, editor_calls: 4, rejected_proposals: 12 });
    const rollouts = readJsonl<Trajectory>(join(result.dir, 'rollouts.jsonl'));
    // 2 generations × 2 tasks × one skill-free group of 2 episodes.
    expect(rollouts).toHaveLength(8);
    expect(
      rollouts.every((r) => r.condition === 0 && r.skill === undefined && r.candidate === undefined),
    ).toBe(true);
    const records = readJsonl<{ candidates: unknown[]; fallback?: string }>(
      join(result.dir, 'candidates.jsonl'),
    );
    expect(records.map((r) => [r.candidates.length, r.fallback])).toEqual([
      [0, 'no-skill'],
      [0, 'no-skill'],
      [0, 'no-skill'],
      [0, 'no-skill'],
    ]);
    expect(existsSync(join(result.dir, 'skills', '1'))).toBe(false);
    expect(result.metrics.generation_1_mean).toBeTypeOf('number');
  });
});
