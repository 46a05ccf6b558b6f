import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRunStream, type Trajectory } from '@skillrl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evolveConfig, finish, internalizeConfig, startCli, tempDir, writeConfig } from './support.js';

// What a user meets through the built CLI when the run directory's files are damaged or cannot be written:
// `skillrl export` says how many rows it could not write and why, and `skillrl run` names the path and the
// real cause of a refused write.

interface ExportJson {
  ok: boolean;
  rows: number;
  notes: string[];
  rowsNotWritten: number;
}

async function cli(args: string[]) {
  return finish(startCli(args));
}

async function exportJson(dir: string, out: string): Promise<ExportJson> {
  const r = await cli(['export', dir, '--out', out, '--json']);
  expect(r.code, r.out + r.err).toBe(0);
  return JSON.parse(r.out.trim().split('\n').pop() as string) as ExportJson;
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);

/** The advantages file with its last record cut after `keep` bytes: what a kill inside that write leaves. */
function tearLastAdvantages(dir: string, keep: (line: string) => number): string {
  const all = lines(join(dir, 'advantages.jsonl'));
  const last = all.pop() as string;
  writeFileSync(
    join(dir, 'advantages.jsonl'),
    `${all.map((l) => `${l}\n`).join('')}${last.slice(0, keep(last))}`,
  );
  return last;
}

/** jsonl rows a record's trajectories give: one per step, counted from the rollouts themselves. */
function stepsOf(dir: string, record: { rows: { trajectoryId?: string }[] }): number {
  const ids = new Set(record.rows.map((r) => r.trajectoryId));
  let steps = 0;
  for (const t of readRunStream<Trajectory>(dir, 'rollouts')) if (ids.has(t.id)) steps += t.steps.length;
  return steps;
}

let work: string;
let internalizeRun: string;
let evolveRun: string;
let fullRows: number;
let evolveRows: number;

beforeAll(async () => {
  work = tempDir('store-errors');
  const int = writeConfig(work, internalizeConfig({ name: 'int' }), 'int.yaml');
  const evo = writeConfig(work, evolveConfig({ name: 'evo' }), 'evo.yaml');
  for (const config of [int, evo]) {
    const r = await cli(['run', config, '--json']);
    expect(r.code, r.out + r.err).toBe(0);
  }
  internalizeRun = join(work, 'runs', 'int');
  evolveRun = join(work, 'runs', 'evo');
  fullRows = (await exportJson(internalizeRun, join(work, 'full.jsonl'))).rows;
  evolveRows = (await exportJson(evolveRun, join(work, 'evo-full.jsonl'))).rows;
  expect(fullRows).toBeGreaterThan(0);
  expect(evolveRows).toBeGreaterThan(0);
}, 120_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('skillrl export never writes fewer rows silently', () => {
  it('a torn last advantages line: the unit, the rows it cost (counted from its rollouts), in words and in --json', async () => {
    const dir = join(work, 'torn');
    cpSync(internalizeRun, dir, { recursive: true });
    const last = tearLastAdvantages(dir, (l) => Math.floor(l.length / 2));
    const record = JSON.parse(last) as { unit: string; rows: { trajectoryId: string }[] };
    const lost = stepsOf(dir, record);
    expect(lost).toBeGreaterThan(0);

    const json = await exportJson(dir, join(work, 'torn.jsonl'));
    expect(json.rows).toBe(fullRows - lost);
    expect(json.rowsNotWritten).toBe(lost);
    expect(lines(join(work, 'torn.jsonl'))).toHaveLength(fullRows - lost);
    const note = json.notes.find((n) => n.includes('could not be written')) as string;
    expect(note).toContain('advantages.jsonl: its last line is unfinished');
    expect(note).toContain(
      `unit ${record.unit}, so ${lost} rows (of its ${record.rows.length} trajectories) could not be written`,
    );
    // The run had completed before the line was torn: resume would leave it as it is, and the note says so.
    expect(note).toContain('The run completed');

    // Without --json, the same words.
    const plain = await cli(['export', dir, '--out', join(work, 'torn.jsonl')]);
    expect(plain.code).toBe(0);
    expect(plain.out).toContain(`wrote ${fullRows - lost} jsonl rows`);
    expect(plain.err).toContain(`note: ${note}`);
    expect(plain.out).not.toContain('note: ');
  });

  it('a damaged last advantages line (ends with a newline): counted the same, with the repair to make', async () => {
    const dir = join(work, 'damaged');
    cpSync(internalizeRun, dir, { recursive: true });
    const all = lines(join(dir, 'advantages.jsonl'));
    const last = all.pop() as string;
    writeFileSync(join(dir, 'advantages.jsonl'), `${[...all, last.slice(0, 60)].join('\n')}\n`);
    const record = JSON.parse(last) as { unit: string; rows: { trajectoryId: string }[] };
    const lost = stepsOf(dir, record);
    const json = await exportJson(dir, join(work, 'damaged.jsonl'));
    expect(json.rows).toBe(fullRows - lost);
    expect(json.rowsNotWritten).toBe(lost);
    expect(json.notes.join('\n')).toContain(
      `advantages.jsonl: line ${all.length + 1} is not valid JSON (damaged). It held the advantages of unit ${record.unit}, so ${lost} rows`,
    );
  });

  it('a line torn before its unit is named: fewer rows, and the note says they cannot be counted', async () => {
    const dir = join(work, 'torn-early');
    cpSync(internalizeRun, dir, { recursive: true });
    const record = JSON.parse(tearLastAdvantages(dir, () => 5)) as { rows: { trajectoryId: string }[] };
    const json = await exportJson(dir, join(work, 'torn-early.jsonl'));
    expect(json.rows).toBe(fullRows - stepsOf(dir, record));
    expect(json.rowsNotWritten).toBe(0);
    expect(json.notes.join('\n')).toMatch(
      /cut before its unit's name, so the rows of that update could not be written and cannot be counted/,
    );
  });

  it('evolve: a torn advantages line costs the candidates of its generation, counted from candidates.jsonl', async () => {
    const dir = join(work, 'evo-torn');
    cpSync(evolveRun, dir, { recursive: true });
    const record = JSON.parse(tearLastAdvantages(dir, (l) => l.length - 3)) as {
      unit: string;
      rows: unknown[];
    };
    const json = await exportJson(dir, join(work, 'evo-torn.jsonl'));
    expect(json.rowsNotWritten).toBe(record.rows.length);
    expect(json.rows + json.rowsNotWritten).toBe(evolveRows);
    expect(json.notes.join('\n')).toContain(
      `unit ${record.unit}, so ${record.rows.length} rows (of its ${record.rows.length} candidates) could not be written`,
    );
  });

  it('a damaged rollout line of a trained trajectory: the damaged line and the trajectory it cost are said', async () => {
    const dir = join(work, 'rollout-damaged');
    cpSync(internalizeRun, dir, { recursive: true });
    const trained = new Set(
      lines(join(dir, 'advantages.jsonl')).flatMap((l) =>
        (JSON.parse(l) as { rows: { trajectoryId: string }[] }).rows.map((r) => r.trajectoryId),
      ),
    );
    const rollouts = lines(join(dir, 'rollouts.jsonl'));
    const at = rollouts.findIndex((l) => trained.has((JSON.parse(l) as Trajectory).id));
    const steps = (JSON.parse(rollouts[at] as string) as Trajectory).steps.length;
    rollouts[at] = (rollouts[at] as string).slice(0, 40);
    writeFileSync(join(dir, 'rollouts.jsonl'), `${rollouts.join('\n')}\n`);
    const json = await exportJson(dir, join(work, 'rollout-damaged.jsonl'));
    expect(json.rows).toBe(fullRows - steps);
    const notes = json.notes.join('\n');
    expect(notes).toContain(`rollouts.jsonl: line ${at + 1} is not valid JSON and was left out.`);
    expect(notes).toContain('1 trained trajectory listed in advantages is not in rollouts');
  });

  it('killed mid-run with the advantages line torn: the note says to resume, and after `skillrl resume` every row is written', async () => {
    // A real SIGKILL once an update's advantages are on disk and no checkpoint covers them yet; its line is
    // then cut as a kill inside that write would cut it (that write is one small syscall: too short to hit).
    const config = writeConfig(work, internalizeConfig({ name: 'killed' }), 'killed.yaml');
    const dir = join(work, 'runs', 'killed');
    let torn: string | undefined;
    for (let attempt = 0; attempt < 12 && !torn; attempt++) {
      rmSync(dir, { recursive: true, force: true });
      const child = startCli(['run', config, '--json']);
      const done = finish(child);
      let exited = false;
      child.on('exit', () => {
        exited = true;
      });
      const want = 1 + (attempt % 3);
      while (!exited) {
        let n = 0;
        try {
          n = lines(join(dir, 'advantages.jsonl')).length;
        } catch {
          // not written yet
        }
        if (n >= want) {
          child.kill('SIGKILL');
          break;
        }
        await new Promise((r) => setImmediate(r));
      }
      if ((await done).signal !== 'SIGKILL') continue;
      const covered = Math.max(
        0,
        ...readdirSync(join(dir, 'checkpoints'))
          .filter((f) => /^snapshot-\d+\.json$/.test(f))
          .map(
            (f) =>
              (
                JSON.parse(readFileSync(join(dir, 'checkpoints', f), 'utf8')) as {
                  streams: Record<string, number>;
                }
              ).streams.advantages ?? 0,
          ),
      );
      if (lines(join(dir, 'advantages.jsonl')).length > covered) {
        torn = tearLastAdvantages(dir, (l) => Math.floor(l.length / 3));
      }
    }
    expect(torn, 'no kill landed between an update and its checkpoint in 12 tries').toBeDefined();
    const record = JSON.parse(torn as string) as { unit: string; rows: { trajectoryId: string }[] };
    const before = await exportJson(dir, join(work, 'killed.jsonl'));
    const lost = stepsOf(dir, record);
    expect(before.rowsNotWritten).toBe(lost);
    expect(before.notes.join('\n')).toContain(
      `so ${lost} rows (of its ${record.rows.length} trajectories) could not be written. To write them, resume the run (skillrl resume ${dir})`,
    );

    const resumed = await cli(['resume', dir, '--json']);
    expect(resumed.code, resumed.out + resumed.err).toBe(0);
    // The store dropped the torn line on opening and said so.
    expect(resumed.err).toContain('advantages.jsonl: dropped a torn last line');
    const after = await exportJson(dir, join(work, 'killed.jsonl'));
    expect(after.notes).toEqual([]);
    expect(after.rowsNotWritten).toBe(0);
    expect(after.rows).toBe(fullRows);
  }, 120_000);
});

/** A tmpfs mounted for one test, or undefined where this user cannot mount (not root). */
function mountTmpfs(options: string): string | undefined {
  const at = mkdtempSync(join(tmpdir(), 'skillrl-cli-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at], { stdio: 'ignore' });
    return at;
  } catch {
    rmSync(at, { recursive: true, force: true });
    return undefined;
  }
}

function unmount(at: string): void {
  execFileSync('umount', ['-l', at]);
  rmSync(at, { recursive: true, force: true });
}

const canMount = (() => {
  const at = mountTmpfs('size=16k');
  if (at) unmount(at);
  return at !== undefined;
})();

describe('skillrl run: a run directory that cannot be written names the path and the real cause', () => {
  it.skipIf(!canMount)(
    'a read-only file system: EROFS and the folder, not ENOENT (where this user can mount a tmpfs: root)',
    async () => {
      const ro = mountTmpfs('ro,size=64k') as string;
      try {
        const config = writeConfig(work, internalizeConfig({ name: 'ro' }), 'ro.yaml');
        const r = await cli(['run', config, '--run-dir', join(ro, 'runs', 'ro')]);
        expect(r.code).not.toBe(0);
        expect(r.err).not.toMatch(/ENOENT/);
        expect(r.err).toContain(
          `${join(ro, 'runs')}: cannot create the run directory: the file system is read-only (EROFS)`,
        );
      } finally {
        unmount(ro);
      }
    },
  );

  it('a run directory below a file: ENOTDIR and the path, whoever runs it', async () => {
    writeFileSync(join(work, 'a-file'), 'x');
    const config = writeConfig(work, internalizeConfig({ name: 'under-file' }), 'under-file.yaml');
    const r = await cli(['run', config, '--run-dir', join(work, 'a-file', 'run')]);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain(join(work, 'a-file'));
    expect(r.err).toContain('a part of the path is a file, not a directory (ENOTDIR)');
  });

  it.skipIf(!canMount)(
    'a disk that fills mid-run: ENOSPC with the file and `skillrl resume <dir>`; resumed once space is freed, the run completes (where this user can mount a tmpfs: root)',
    async () => {
      const small = mountTmpfs('size=400k') as string;
      try {
        const config = writeConfig(work, internalizeConfig({ name: 'full' }), 'full.yaml');
        const dir = join(small, 'full');
        const r = await cli(['run', config, '--run-dir', dir]);
        expect(r.code).not.toBe(0);
        expect(r.err).toMatch(/the disk is full \(ENOSPC\)/);
        expect(r.err).toContain(`skillrl resume ${dir}`);
        execFileSync('mount', ['-o', 'remount,size=16m', small]);
        const resumed = await cli(['resume', dir, '--json']);
        expect(resumed.code, resumed.out + resumed.err).toBe(0);
        const json = await exportJson(dir, join(work, 'full.jsonl'));
        expect(json.rows).toBe(fullRows);
        expect(json.notes).toEqual([]);
      } finally {
        unmount(small);
      }
    },
  );
});

describe('skillrl export: an output that cannot be written names the path and the cause, and suggests --out', () => {
  it.skipIf(!canMount)(
    'a run directory on a read-only file system: EROFS; --out elsewhere works (where this user can mount a tmpfs: root)',
    async () => {
      const at = mountTmpfs('size=8m') as string;
      try {
        const dir = join(at, 'int');
        cpSync(internalizeRun, dir, { recursive: true });
        execFileSync('mount', ['-o', 'remount,ro', at]);
        const r = await cli(['export', dir]);
        expect(r.code).not.toBe(0);
        expect(r.err).toContain(
          `cannot write ${join(dir, 'export.jsonl')}: the file system is read-only (EROFS)`,
        );
        expect(r.err).toContain('--out <file>');
        const elsewhere = await exportJson(dir, join(work, 'from-read-only.jsonl'));
        expect(elsewhere.rows).toBe(fullRows);
      } finally {
        unmount(at);
      }
    },
  );

  it('--out below a file: ENOTDIR with the path, whoever runs it', async () => {
    writeFileSync(join(work, 'plain-file'), 'x');
    const out = join(work, 'plain-file', 'rows.jsonl');
    const r = await cli(['export', internalizeRun, '--out', out, '--json']);
    expect(r.code).not.toBe(0);
    expect(r.out + r.err).toContain(
      `cannot write ${out}: a part of the path is a file, not a directory (ENOTDIR)`,
    );
  });
});
