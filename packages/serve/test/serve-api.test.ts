import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRunStore } from '@skillrl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvolveRun, writeInternalizeRun } from '../bench/synthetic-runs.mjs';
import {
  type Comparison,
  createServeApp,
  type RolloutPage,
  type RunDetail,
  type RunSummary,
  type ServeApp,
  type SkillVersionDetail,
  type SkillVersionRow,
  type TrajectoryView,
} from '../src/index.js';

describe('skillrl serve: the API over run directories', () => {
  let root: string;
  let serve: ServeApp;
  const get = async <T>(path: string): Promise<T> => {
    const r = await serve.app.request(path, { headers: { host: '127.0.0.1' } });
    expect(r.status, `${path}: ${r.status}`).toBe(200);
    return (await r.json()) as T;
  };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'serve-api-'));
    // Small segments, so that the streams are read across gzip segments and an open file.
    writeInternalizeRun(join(root, 'skillc'), { runId: 'skillc', errorEvery: 29, segmentBytes: 16 * 1024 });
    writeInternalizeRun(join(root, 'grpo'), { runId: 'grpo', variant: 'grpo', learn: 0 });
    writeEvolveRun(join(root, 'bench', 'evolve'), { runId: 'evolve' });
    writeInternalizeRun(join(root, 'killed'), {
      runId: 'killed',
      complete: false,
      steps: 3,
      startMs: Date.now() - 3_600_000,
    });
    serve = createServeApp({ dir: root });
  });
  afterAll(() => {
    serve?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('lists every run with its state, method, config and progress', async () => {
    const { runs } = await get<{ runs: RunSummary[] }>('/api/runs');
    const byId = Object.fromEntries(runs.map((r) => [r.id, r]));
    expect(Object.keys(byId).sort()).toEqual(['bench/evolve', 'grpo', 'killed', 'skillc']);
    expect(byId.skillc).toMatchObject({
      method: 'internalize',
      variant: 'skillc',
      status: { state: 'completed' },
      progress: { unit: 'step', done: 12, total: 12 },
    });
    expect(byId.skillc?.config).toContainEqual(['adapter', 'household']);
    expect(byId['bench/evolve']).toMatchObject({
      method: 'evolve',
      progress: { unit: 'generation', done: 4, total: 4 },
    });
    // No run:end: stopped, once its files have been quiet for staleAfterMs (it can be resumed).
    const quiet = createServeApp({ dir: root, staleAfterMs: 0 });
    const rows = (await (
      await quiet.app.request('/api/runs', { headers: { host: 'localhost' } })
    ).json()) as { runs: RunSummary[] };
    expect(rows.runs.find((r) => r.id === 'killed')?.status).toMatchObject({ state: 'stopped' });
    expect(rows.runs.find((r) => r.id === 'killed')?.status.label).toMatch(/resume/);
    quiet.close();
  });

  it('gives one run its health, with error messages, and its charts', async () => {
    const d = await get<RunDetail>('/api/run?run=skillc');
    expect(d.health.errored).toBeGreaterThan(0);
    expect(d.health.errors[0]?.message).toMatch(/503/);
    expect(d.health.errors[0]?.example).toMatch(/:c[01]:i\d+$/);
    const ids = d.charts.map((c) => c.id);
    expect(ids).toEqual(['train-success', 'validation-success', 'gap', 'lambda', 'rho']);
    const train = d.charts[0];
    expect(train?.series[0]?.points.length).toBe(12);
    expect(d.retirements.some((r) => r.kind === 'retired')).toBe(true);
    const evolve = await get<RunDetail>(`/api/run?run=${encodeURIComponent('bench/evolve')}`);
    expect(evolve.charts.map((c) => c.id)).toEqual(['reward', 'reward-by-task']);
    expect(evolve.charts[0]?.series[0]?.points.length).toBe(5);
  });

  it('compares runs: curves overlaid, held-out difference paired by task with its interval', async () => {
    const c = await get<Comparison>('/api/compare?run=skillc&run=grpo');
    expect(c.runs.map((r) => r.id)).toEqual(['skillc', 'grpo']);
    const without = c.paired.find((p) => p.side === 'without');
    expect(without).toMatchObject({ a: 'skillc', b: 'grpo', unit: 'test', tasks: 12 });
    expect(without?.result?.lower).toBeLessThanOrEqual(without?.result?.difference as number);
    expect(without?.result?.upper).toBeGreaterThanOrEqual(without?.result?.difference as number);
    const train = c.charts.find((x) => x.id === 'cmp-train');
    expect(train?.series.map((s) => s.label)).toEqual(['skillc', 'grpo']);
    expect(
      (await serve.app.request('/api/compare?run=skillc&run=nope', { headers: { host: 'localhost' } }))
        .status,
    ).toBe(404);
  });

  it('filters rollouts and opens one trajectory with its z = 1 / z = 0 partners', async () => {
    const all = await get<RolloutPage>('/api/rollouts?run=skillc&limit=500');
    expect(all.total).toBe(all.matched);
    expect(all.families.length).toBe(6);
    const z0 = await get<RolloutPage>('/api/rollouts?run=skillc&z=0&unit=test&limit=500');
    expect(z0.matched).toBe(12);
    expect(z0.rows.every((r) => r.condition === 0 && r.unit === 'test')).toBe(true);
    const errored = await get<RolloutPage>('/api/rollouts?run=skillc&outcome=errored');
    expect(errored.matched).toBeGreaterThan(0);
    expect(errored.rows.every((r) => r.error !== undefined)).toBe(true);
    const passed = await get<RolloutPage>('/api/rollouts?run=skillc&outcome=passed&minReward=1');
    expect(passed.rows.every((r) => r.passed && r.reward >= 1)).toBe(true);
    const paged = await get<RolloutPage>('/api/rollouts?run=skillc&offset=10&limit=5');
    expect(paged.rows.map((r) => r.id)).toEqual(all.rows.slice(10, 15).map((r) => r.id));

    const first = z0.rows[0];
    const t = await get<{ trajectory: TrajectoryView; partners: { id: string; condition: number }[] }>(
      `/api/trajectory?run=skillc&id=${encodeURIComponent(first?.id ?? '')}`,
    );
    expect(t.trajectory.id).toBe(first?.id);
    expect(t.trajectory.steps.length).toBe(4);
    expect(t.trajectory.steps[0]).toMatchObject({
      observation: expect.any(String),
      action: expect.any(String),
      latencyMs: expect.any(Number),
      inputTokens: expect.any(Number),
    });
    expect(t.partners[0]?.condition).toBe(1);
    // Every rollout the list shows opens, whichever segment holds it.
    for (const row of all.rows.filter((_, i) => i % 17 === 0)) {
      const one = await get<{ trajectory: TrajectoryView }>(
        `/api/trajectory?run=skillc&id=${encodeURIComponent(row.id)}`,
      );
      expect(one.trajectory.id).toBe(row.id);
    }
  });

  it('shows a rollout run again on resume once, as it finally ended', async () => {
    const dir = join(root, 'resumed');
    writeInternalizeRun(dir, { runId: 'resumed', steps: 1 });
    const store = openRunStore(dir, { onWarning: () => {} });
    const id = 's2/household/train/0/0:c1:i0';
    const base = { id, taskId: 'household/train/0/0', family: 'pick', condition: 1, steps: [], reward: 0 };
    const time = new Date().toISOString();
    store.append('rollouts', {
      ...base,
      verdict: { score: 0, passed: false },
      error: { code: 'model', message: 'boom' },
    });
    store.append('events', {
      type: 'rollout',
      trajectoryId: id,
      taskId: base.taskId,
      family: 'pick',
      condition: 1,
      reward: 0,
      passed: false,
      error: 'boom',
      runId: 'resumed',
      time,
    });
    store.append('rollouts', { ...base, reward: 1, verdict: { score: 1, passed: true } });
    store.append('events', {
      type: 'rollout',
      trajectoryId: id,
      taskId: base.taskId,
      family: 'pick',
      condition: 1,
      reward: 1,
      passed: true,
      runId: 'resumed',
      time,
    });
    store.close();
    const d = await get<RunDetail>('/api/run?run=resumed');
    expect(d.health.rerun).toBe(1);
    expect(d.health.errored).toBe(0);
    const rows = await get<RolloutPage>(
      `/api/rollouts?run=resumed&task=${encodeURIComponent('train/0/0')}&unit=s2`,
    );
    expect(rows.matched).toBe(1);
    expect(rows.rows[0]).toMatchObject({ passed: true, reward: 1 });
    const t = await get<{ trajectory: TrajectoryView }>(
      `/api/trajectory?run=resumed&id=${encodeURIComponent(id)}`,
    );
    expect(t.trajectory.verdict.passed).toBe(true);
  });

  it('lists the skill bank with parents, reward and utility, and a version with its diff', async () => {
    const bank = await get<{ source: string; versions: SkillVersionRow[] }>(
      `/api/skills?run=${encodeURIComponent('bench/evolve')}`,
    );
    expect(bank.source).toBe('bank.jsonl');
    expect(bank.versions.length).toBe(15);
    const child = bank.versions.find((v) => v.parentIndex !== undefined) as SkillVersionRow;
    expect(bank.versions[child.parentIndex as number]?.hash).toBe(child.parent);
    expect(child.reward?.lo).toBeLessThanOrEqual(child.reward?.mean as number);
    const d = await get<SkillVersionDetail>(
      `/api/skill?run=${encodeURIComponent('bench/evolve')}&index=${child.index}`,
    );
    expect(d.text).toMatch(/^---\nname: /);
    expect(d.diff?.added).toBeGreaterThan(0);
    // A running internalize run has no bank.jsonl yet: its versions come from the skill folders.
    const live = await get<{ source: string; versions: SkillVersionRow[] }>('/api/skills?run=killed');
    expect(live.source).toBe('skill folders');
    expect(live.versions.length).toBe(6);
  });

  it('tells live pages what changed: a new run, and a run that moved on', async () => {
    const dir = join(root, 'growing');
    const sent: [string, string][] = [];
    const remove = serve.live.add({ send: (event, data) => sent.push([event, data]) });
    try {
      const run = writeInternalizeRun(dir, { runId: 'growing', keepOpen: true, steps: 10 });
      serve.catalog.scan(true);
      serve.live.tick();
      expect(sent.some(([e, d]) => e === 'runs' && d.includes('growing'))).toBe(true);
      sent.length = 0;
      run.step(1);
      run.step(2);
      serve.live.tick();
      const rows = sent.filter(([e]) => e === 'run').map(([, d]) => JSON.parse(d) as RunSummary);
      expect(rows.map((r) => r.id)).toEqual(['growing']);
      expect(rows[0]?.progress.done).toBe(2);
      sent.length = 0;
      serve.live.tick();
      expect(sent.filter(([e]) => e === 'run')).toEqual([]);
      run.close();
    } finally {
      remove();
    }
  });
});
