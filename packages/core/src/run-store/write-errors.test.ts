import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RunStoreError } from '../errors/run-store-error.js';
import { openRunStore } from './open-run-store.js';

// Real file systems only: a read-only tmpfs for EROFS, a full tmpfs for ENOSPC, a directory without write
// permission for EACCES. Mounting needs root (CAP_SYS_ADMIN) and chmod stops nobody who is root, so each
// case runs where the real condition can be made and says why it is skipped where it cannot.

const dirs: string[] = [];
const mounts: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillrl-write-errors-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) {
    chmodSync(d, 0o755);
    rmSync(d, { recursive: true, force: true });
  }
});
afterAll(() => {
  for (const m of mounts.splice(0)) {
    // Lazy: a store a failed test left open must not keep the mount behind.
    execFileSync('umount', ['-l', m]);
    rmSync(m, { recursive: true, force: true });
  }
});

/** A tmpfs of `size` mounted at a new folder, or undefined where this user cannot mount. */
function mountTmpfs(options: string): string | undefined {
  const at = mkdtempSync(join(tmpdir(), 'skillrl-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', at], { stdio: 'ignore' });
  } catch {
    rmSync(at, { recursive: true, force: true });
    return undefined;
  }
  mounts.push(at);
  return at;
}

/** Fills the file system of `dir` until about `free` bytes are left; returns the filler's path. */
function fillTo(dir: string, free: number): string {
  const { bavail, bsize } = statfsSync(dir);
  const filler = join(dir, 'filler');
  writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - free)));
  return filler;
}

const isRoot = process.getuid?.() === 0;
const roMount = mountTmpfs('ro,size=64k');
const smallMount = mountTmpfs('size=256k');
const rotationMount = mountTmpfs('size=512k');
const quiet = { onWarning: () => {} };

function thrown(fn: () => unknown): RunStoreError {
  try {
    fn();
  } catch (error) {
    expect(RunStoreError.isInstance(error)).toBe(true);
    return error as RunStoreError;
  }
  throw new Error('expected a RunStoreError');
}

describe('run store write errors name the path and the real cause', () => {
  it.skipIf(!roMount)(
    'a run directory on a read-only file system: EROFS, not the ENOENT of mkdir (where this user can mount a tmpfs: root)',
    () => {
      const dir = join(roMount as string, 'runs', 'r1');
      const error = thrown(() => openRunStore(dir, quiet));
      // Node's recursive mkdir says ENOENT here; the store finds the refusal that matters.
      expect(error.message).not.toMatch(/ENOENT/);
      expect(error.message).toContain(join(roMount as string, 'runs'));
      expect(error.message).toMatch(
        /cannot create the run directory: the file system is read-only \(EROFS\)/,
      );
      // The fix, without a flag: the store serves `run` (which has --run-dir) and `resume` (which has not).
      expect(error.message).toContain('Choose a writable run directory, or make this one writable.');
      expect(error.message).not.toMatch(/--run-dir/);
    },
  );

  it.skipIf(isRoot)(
    'a run directory this user may not write: EACCES with the path (not as root, whom chmod does not stop)',
    () => {
      const parent = tempDir();
      chmodSync(parent, 0o555);
      const error = thrown(() => openRunStore(join(parent, 'run'), quiet));
      expect(error.message).not.toMatch(/ENOENT/);
      expect(error.message).toContain(join(parent, 'run'));
      expect(error.message).toMatch(/permission denied \(EACCES\)/);

      // An existing run directory made read-only after it was written: the first append says so.
      const dir = tempDir();
      openRunStore(dir, quiet).close();
      chmodSync(dir, 0o555);
      const store = openRunStore(dir, quiet);
      const append = thrown(() => store.append('events', { n: 1 }));
      expect(append.message).toContain(join(dir, 'events.jsonl'));
      expect(append.message).toMatch(/cannot append a record: permission denied \(EACCES\)/);
      store.close();
    },
  );

  it.skipIf(!isRoot || typeof process.seteuid !== 'function')(
    'as root: the same EACCES, with the effective user switched to nobody for the writes',
    () => {
      const parent = tempDir();
      // Root's folders, readable by all and writable by root alone.
      chmodSync(parent, 0o755);
      const existing = join(parent, 'existing');
      openRunStore(existing, quiet).close();
      let opening: RunStoreError;
      let appending: RunStoreError;
      // Synchronous from here to the restore: nothing else runs in this process as nobody.
      (process.setegid as (id: number) => void)(65534);
      (process.seteuid as (id: number) => void)(65534);
      try {
        opening = thrown(() => openRunStore(join(parent, 'run'), quiet));
        const store = openRunStore(existing, quiet);
        appending = thrown(() => store.append('events', { n: 1 }));
        store.close();
      } finally {
        (process.seteuid as (id: number) => void)(0);
        (process.setegid as (id: number) => void)(0);
      }
      expect(opening.message).not.toMatch(/ENOENT/);
      expect(opening.message).toContain(
        `${join(parent, 'run')}: cannot create the run directory: permission denied (EACCES)`,
      );
      expect(appending.message).toContain(
        `${join(existing, 'events.jsonl')}: cannot append a record: permission denied (EACCES)`,
      );
    },
  );

  it('a run directory below a file: ENOTDIR with the path, whoever runs it', () => {
    const base = tempDir();
    writeFileSync(join(base, 'not-a-dir'), 'x');
    const error = thrown(() => openRunStore(join(base, 'not-a-dir', 'run'), quiet));
    expect(error.message).toContain(join(base, 'not-a-dir'));
    expect(error.message).toMatch(/a part of the path is a file, not a directory \(ENOTDIR\)/);
  });

  it.skipIf(!smallMount)(
    'a full disk mid-run: ENOSPC with the path and the resume hint; the stream stays whole and continues once space is freed (where this user can mount a tmpfs: root)',
    () => {
      const dir = join(smallMount as string, 'run');
      // Something else on the disk, removed later to free space.
      const filler = join(smallMount as string, 'filler');
      writeFileSync(filler, Buffer.alloc(96 * 1024));
      const store = openRunStore(dir, quiet);
      const record = (i: number) => ({ i, text: `${i}`.padEnd(10_000, 'x') });
      let stored = 0;
      let error: RunStoreError | undefined;
      for (let i = 0; i < 100 && !error; i++) {
        try {
          store.append('rollouts', record(i));
          stored++;
        } catch (e) {
          error = e as RunStoreError;
        }
      }
      expect(error).toBeDefined();
      expect(RunStoreError.isInstance(error)).toBe(true);
      const message = (error as RunStoreError).message;
      expect(message).toContain(join(dir, 'rollouts.jsonl'));
      expect(message).toMatch(/cannot append a record: the disk is full \(ENOSPC\)/);
      expect(message).toContain(`skillrl resume ${dir}`);
      // The refused record left no part of itself behind: the file ends at the last complete record.
      const text = readFileSync(join(dir, 'rollouts.jsonl'), 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      expect(text.split('\n').filter(Boolean)).toHaveLength(stored);
      expect(store.count('rollouts')).toBe(stored);
      // A snapshot on the full disk fails the same way, naming its file.
      const snap = thrown(() => store.writeSnapshot('step', { pad: 'y'.repeat(300_000) }));
      expect(snap.message).toMatch(
        /checkpoints\/snapshot-\d{8}\.json: cannot write the file: the disk is full/,
      );
      expect(existsSync(join(dir, 'checkpoints'))).toBe(true);
      store.close();

      // Space freed: the run reopens with nothing torn and continues.
      const again = openRunStore(dir, quiet);
      expect(again.recovery.torn).toEqual([]);
      expect(again.recovery.removedTempFiles).toEqual([]);
      expect(again.count('rollouts')).toBe(stored);
      const kept = again.read<{ i: number }>('rollouts').map((r) => r.i);
      expect(kept).toEqual(Array.from({ length: stored }, (_, i) => i));
      again.close();
      rmSync(filler);
      const resumed = openRunStore(dir, quiet);
      for (let i = stored; i < stored + 3; i++) resumed.append('rollouts', record(i));
      expect(resumed.read<{ i: number }>('rollouts').map((r) => r.i)).toEqual(
        Array.from({ length: stored + 3 }, (_, i) => i),
      );
      const after = readFileSync(join(dir, 'rollouts.jsonl'), 'utf8');
      expect(after.endsWith('\n')).toBe(true);
      expect(after.split('\n').filter(Boolean)).toHaveLength(stored + 3);
      resumed.close();
    },
  );

  it.skipIf(!rotationMount)(
    'a full disk while compressing a rotated segment: the error names the segment, and the stream goes on once space is freed (where this user can mount a tmpfs: root)',
    () => {
      const dir = join(rotationMount as string, 'run');
      const store = openRunStore(dir, { ...quiet, segmentBytes: 80_000 });
      // Random text barely compresses, so the .gz needs about as much room as the segment it replaces.
      const record = (i: number) => ({ i, text: randomBytes(15_000).toString('base64') });
      const filler = fillTo(rotationMount as string, 110_000);
      let error: RunStoreError | undefined;
      let stored = 0;
      for (let i = 0; i < 20 && !error; i++) {
        try {
          store.append('rollouts', record(i));
          stored++;
        } catch (e) {
          error = e as RunStoreError;
        }
      }
      expect(RunStoreError.isInstance(error)).toBe(true);
      const message = (error as RunStoreError).message;
      expect(message).toMatch(
        /segments\/rollouts\.000001\.n\d+\.jsonl\.gz: cannot compress a closed segment: the disk is full \(ENOSPC\)/,
      );
      expect(message).toContain(`skillrl resume ${dir}`);
      // The record that triggered the rotation was stored (it is in the plain segment), and the stream
      // still has an open file: freed space, it goes on in this same store.
      stored++;
      rmSync(filler);
      store.append('rollouts', record(100));
      const ids = store.read<{ i: number }>('rollouts').map((r) => r.i);
      expect(ids).toEqual([...Array.from({ length: stored }, (_, i) => i), 100]);
      store.close();
      const again = openRunStore(dir, quiet);
      expect(readdirSync(join(dir, 'segments')).every((n) => n.endsWith('.gz'))).toBe(true);
      expect(again.read<{ i: number }>('rollouts').map((r) => r.i)).toEqual(ids);
      again.close();
    },
  );
});
