import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRunStore, type RunManifest, type Trajectory } from '@skillrl/core';
import { createOpenAIAgent } from '@skillrl/rollout';
import { type FakeChatRequest, type FakeOpenAIServer, startFakeOpenAI } from '@skillrl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportRun } from '../src/index.js';
import { createCountingAdapter, WORDS } from './counting-adapter.js';
import { makeInternalizeRun } from './make-run-dir.js';

// What an export reads from a run that was resumed, that has errored rollouts, or whose advantages.jsonl is
// damaged: each rollout as its latest record (the re-run, never the errored record before it), no errored
// trajectory ever, a damaged advantages record named by its file and line (never blamed on the rollouts or
// candidates it names), and step-level advantages per step where a layout has per-step rows.

let server: FakeOpenAIServer;
let base: string;
beforeAll(async () => {
  server = await startFakeOpenAI({
    seed: 5,
    respond: (request: FakeChatRequest) => {
      const turn = (request.messages ?? []).filter((m) => m.role === 'assistant').length;
      // Rewards differ between episodes, so the advantages are not all zero.
      return `<action>${Number(request.seed ?? 0) % 2 === 0 ? WORDS[turn] : 'one'}</action>`;
    },
  });
  base = await makeInternalizeRun({
    adapter: createCountingAdapter(),
    agent: createOpenAIAgent({
      model: 'fake-model',
      baseURL: server.baseURL,
      apiKey: 'sk-test-export-0123456789',
      seed: 3,
      logprobs: true,
      returnTokenIds: true,
    }),
    steps: 2,
    tasksPerStep: 2,
    groupSize: 2,
    validation: { split: 'valid', limit: 2 },
    maxSteps: 3,
    seed: 3,
  });
});
afterAll(async () => {
  await server.close();
});

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);
const records = <T>(path: string): T[] => lines(path).map((l) => JSON.parse(l) as T);
const write = (path: string, list: string[]) => writeFileSync(path, `${list.join('\n')}\n`);

interface AdvantagesLine {
  key: string;
  unit: string;
  rows: { trajectoryId: string; advantage: number | null; stepAdvantages?: number[] }[];
}

/** A copy of the run directory to change. */
function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skillrl-export-latest-'));
  cpSync(base, dir, { recursive: true });
  return dir;
}

/** Rewrites advantages.jsonl's rows. */
function editAdvantages(dir: string, edit: (row: AdvantagesLine['rows'][number]) => void): void {
  const path = join(dir, 'advantages.jsonl');
  write(
    path,
    records<AdvantagesLine>(path).map((r) => {
      for (const row of r.rows) edit(row);
      return JSON.stringify(r);
    }),
  );
}

/** The errored record a rollout left before it was run again on resume: one step, then a failed model call. */
function erroredCopy(t: Trajectory): Trajectory {
  return {
    ...t,
    steps: [{ ...(t.steps[0] as Trajectory['steps'][number]), action: 'ERRORED-STEP', tokenIds: [7, 7, 7] }],
    reward: 0,
    verdict: { score: 0, passed: false },
    error: { code: 'model', message: 'HTTP 503 after 3 retries' },
  };
}

describe('export reads each rollout as its latest record', () => {
  it('an errored record, then its re-run (different steps, advantage 0.9): every layout exports the re-run only', () => {
    const dir = copy();
    const rolloutsPath = join(dir, 'rollouts.jsonl');
    const all = lines(rolloutsPath);
    const at = all.findIndex((l) => (JSON.parse(l) as Trajectory).id.startsWith('s1/'));
    const rerun = JSON.parse(all[at] as string) as Trajectory;
    expect(rerun.steps).toHaveLength(3);
    // As a resume leaves it: the errored record first, the re-run appended later under the same id.
    all.splice(at, 1);
    all.splice(1, 0, JSON.stringify(erroredCopy(rerun)));
    all.push(JSON.stringify(rerun));
    write(rolloutsPath, all);
    editAdvantages(dir, (row) => {
      if (row.trajectoryId === rerun.id) row.advantage = 0.9;
    });

    const jsonl = exportRun(dir, { format: 'jsonl' });
    expect(jsonl).toMatchObject({ notes: [], erroredLeftOut: 0, rowsNotWritten: 0, sources: 8 });
    const mine = records<{ completion: string; advantage: number; meta: { trajectoryId: string } }>(
      jsonl.path,
    ).filter((r) => r.meta.trajectoryId === rerun.id);
    expect(mine.map((r) => r.completion)).toEqual(rerun.steps.map((s) => s.action));
    expect(mine.every((r) => r.advantage === 0.9)).toBe(true);

    const trl = exportRun(dir, { format: 'trl' });
    const trlMine = records<{ completion_ids: number[]; advantage: number; meta: { trajectory_id: string } }>(
      trl.path,
    ).filter((r) => r.meta.trajectory_id === rerun.id);
    expect(trlMine).toHaveLength(3);
    expect(trlMine.map((r) => r.completion_ids)).toEqual(rerun.steps.map((s) => s.tokenIds));
    expect(trlMine.every((r) => r.advantage === 0.9)).toBe(true);

    const verl = exportRun(dir, { format: 'verl' });
    const verlMine = records<{ extra_fields: { trajectory_id: string; turns: number }; advantage: number }>(
      verl.path,
    ).filter((r) => r.extra_fields.trajectory_id === rerun.id);
    expect(verlMine.map((r) => [r.extra_fields.turns, r.advantage])).toEqual([[3, 0.9]]);
    expect(readFileSync(verl.path, 'utf8')).not.toContain('7,7,7');
  });

  it('a trained trajectory whose latest record errored is never exported: counted, said, not blamed on rollouts', () => {
    const dir = copy();
    const rolloutsPath = join(dir, 'rollouts.jsonl');
    const all = lines(rolloutsPath);
    const trained = all.map((l) => JSON.parse(l) as Trajectory).filter((t) => t.id.startsWith('s2/'));
    // An older run listed errored rollouts in advantages; one was never run again (its latest errored).
    all.push(JSON.stringify(erroredCopy(trained[0] as Trajectory)));
    write(rolloutsPath, all);
    const clean = exportRun(base, { format: 'jsonl', out: join(dir, 'clean.jsonl') });
    for (const format of ['jsonl', 'trl', 'verl'] as const) {
      const out = exportRun(dir, { format, out: join(dir, `${format}.jsonl`) });
      expect(out.erroredLeftOut).toBe(1);
      expect(out.sources).toBe(7);
      expect(out.notes).toEqual([
        expect.stringMatching(
          /^1 trajectory listed in advantages ended in an error .* was left out: an errored rollout measured nothing/,
        ),
      ]);
      expect(readFileSync(out.path, 'utf8')).not.toContain((trained[0] as Trajectory).id);
    }
    expect(exportRun(dir, { format: 'jsonl', out: join(dir, 'x.jsonl') }).rows).toBe(clean.rows - 3);
  });

  it('a row without an advantage (null) is not exported, and said', () => {
    const dir = copy();
    let first = true;
    editAdvantages(dir, (row) => {
      if (first) row.advantage = null;
      first = false;
    });
    const out = exportRun(dir, { format: 'trl' });
    expect(out.sources).toBe(7);
    expect(out.notes).toEqual([
      '1 trajectory listed in advantages has no advantage (null: the update left it out) and was not exported.',
    ]);
  });
});

describe('step-level advantages are exported per step', () => {
  it('jsonl and trl rows carry their step’s advantage; a verl multi-turn row carries them beside its own', () => {
    const dir = copy();
    const steps = new Map<string, number[]>();
    editAdvantages(dir, (row) => {
      const values = [0.5, -0.25, (row.advantage ?? 0) + 1];
      row.stepAdvantages = values;
      steps.set(row.trajectoryId, values);
    });
    const jsonl = records<{ advantage: number; meta: { trajectoryId: string; step: number } }>(
      exportRun(dir, { format: 'jsonl' }).path,
    );
    expect(jsonl).toHaveLength(24);
    for (const r of jsonl) expect(r.advantage).toBe(steps.get(r.meta.trajectoryId)?.[r.meta.step]);
    const trl = records<{ advantage: number; meta: { trajectory_id: string; turn: number } }>(
      exportRun(dir, { format: 'trl' }).path,
    );
    for (const r of trl) expect(r.advantage).toBe(steps.get(r.meta.trajectory_id)?.[r.meta.turn]);
    const advantages = new Map(
      records<AdvantagesLine>(join(base, 'advantages.jsonl')).flatMap((r) =>
        r.rows.map((row) => [row.trajectoryId, row.advantage]),
      ),
    );
    const verl = records<{
      advantage: number;
      extra_fields: { trajectory_id: string; step_advantages: number[] };
    }>(exportRun(dir, { format: 'verl' }).path);
    expect(verl).toHaveLength(8);
    for (const r of verl) {
      expect(r.extra_fields.step_advantages).toEqual(steps.get(r.extra_fields.trajectory_id));
      expect(r.advantage).toBe(advantages.get(r.extra_fields.trajectory_id));
    }
  });

  it('step advantages that do not match the steps: the trajectory’s advantage, and a note', () => {
    const dir = copy();
    editAdvantages(dir, (row) => {
      row.stepAdvantages = [1, 2];
    });
    const out = exportRun(dir, { format: 'jsonl' });
    expect(out.notes).toEqual([expect.stringMatching(/^8 of the trained trajectories have step advantages/)]);
    const advantages = new Map(
      records<AdvantagesLine>(join(base, 'advantages.jsonl')).flatMap((r) =>
        r.rows.map((row) => [row.trajectoryId, row.advantage]),
      ),
    );
    for (const r of records<{ advantage: number; meta: { trajectoryId: string } }>(out.path)) {
      expect(r.advantage).toBe(advantages.get(r.meta.trajectoryId));
    }
  });
});

describe('a damaged advantages record is named by its file and line', () => {
  const cases: [string, (record: AdvantagesLine) => unknown, RegExp][] = [
    ['not JSON', () => '{"key":"s2","unit":"s2","rows":[{"traj', /line 2 is not valid JSON \(damaged\)/],
    [
      'a row without its trajectory id',
      (r) => ({ ...r, rows: r.rows.map(({ trajectoryId: _, ...row }) => row) }),
      /line 2 has rows\[0\]\.trajectoryId = undefined \(expected a rollout id: a string\) \(damaged\)/,
    ],
    [
      'an advantage that is not a number',
      (r) => ({ ...r, rows: r.rows.map((row, i) => (i === 3 ? { ...row, advantage: '0.5' } : row)) }),
      /line 2 has rows\[3\]\.advantage = "0\.5" \(expected a finite number or null\) \(damaged\)/,
    ],
    ['rows that are not an array', (r) => ({ ...r, rows: { 0: r.rows[0] } }), /line 2 has rows = \{"0"/],
  ];
  for (const [what, damage, says] of cases) {
    it(`${what}: skipped honestly, its unit's rows counted, nothing blamed on the rollouts`, () => {
      const dir = copy();
      const path = join(dir, 'advantages.jsonl');
      const list = lines(path);
      const record = JSON.parse(list[1] as string) as AdvantagesLine;
      const damaged = damage(record);
      list[1] = typeof damaged === 'string' ? damaged : JSON.stringify(damaged);
      write(path, list);
      const full = exportRun(base, { format: 'jsonl', out: join(dir, 'full.jsonl') }).rows;
      const out = exportRun(dir, { format: 'jsonl' });
      expect(out.rowsNotWritten).toBe(12);
      expect(out.rows).toBe(full - 12);
      expect(out.notes).toHaveLength(1);
      const note = out.notes[0] as string;
      expect(note).toMatch(new RegExp(`^advantages\\.jsonl: ${says.source}`));
      expect(note).toContain('It held the advantages of unit s2, so 12 rows (of its 4 trajectories)');
      expect(note).not.toContain('not in rollouts');
    });
  }

  it('evolve: a row without its task id is the damaged line, not "candidates missing"', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillrl-export-evolve-'));
    const store = openRunStore(dir);
    const manifest: RunManifest = {
      runId: 'evo',
      method: 'evolve',
      configPath: join(dir, 'config.yaml'),
      components: {},
    };
    store.writeFile('run.json', JSON.stringify(manifest));
    const candidate = (name: string) => ({
      skill: { name, description: 'Steps.', body: '1. go\n' },
      text: `---\nname: ${name}\n---\n1. go\n`,
    });
    for (const [unit, task] of [
      ['g1', 'a'],
      ['g1', 'b'],
      ['g2', 'a'],
    ]) {
      store.append('candidates', {
        key: `${unit}/${task}`,
        taskId: task,
        generation: Number(unit?.slice(1)),
        candidates: [candidate(`${task}-one`), candidate(`${task}-two`)],
      });
    }
    const row = (taskId: string, candidate: number, advantage: number | null) => ({
      taskId,
      candidate,
      reward: 0.5,
      advantage,
    });
    store.append('advantages', {
      key: 'g1',
      unit: 'g1',
      rows: [row('a', 0, 0.5), row('a', 1, -0.5), row('b', 0, 0)],
    });
    store.append('advantages', {
      key: 'g2',
      unit: 'g2',
      rows: [{ candidate: 0, advantage: 1 }, row('a', 1, null)],
    });
    store.close();
    const out = exportRun(dir, { format: 'jsonl' });
    expect(out.rows).toBe(3);
    expect(out.rowsNotWritten).toBe(2);
    expect(out.notes).toEqual([
      'advantages.jsonl: line 2 has rows[0].taskId = undefined (expected a task id: a string) (damaged). It held the advantages of unit g2, so 2 rows (of its 2 candidates) could not be written. To write them, repair or remove that line of advantages.jsonl, resume the run (skillrl resume ' +
        `${dir}) so that the update is made again, then export again.`,
    ]);
  });
});
