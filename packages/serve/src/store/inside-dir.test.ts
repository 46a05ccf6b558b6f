import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutsideDirError } from '../errors/outside-dir-error.js';
import { resolveInside } from './inside-dir.js';

describe('resolveInside', () => {
  let base: string;
  let root: string;
  let real: string;
  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'serve-inside-'));
    root = join(base, 'runs');
    mkdirSync(join(root, 'a', 'skills'), { recursive: true });
    writeFileSync(join(root, 'a', 'config.json'), '{}');
    writeFileSync(join(base, 'secret.txt'), 'secret');
    symlinkSync(join(base, 'secret.txt'), join(root, 'a', 'out-link'));
    symlinkSync(join(root, 'a', 'config.json'), join(root, 'a', 'in-link'));
    real = realpathSync(root);
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const refused = (path: string) => {
    try {
      resolveInside(root, real, path);
    } catch (error) {
      expect(OutsideDirError.isInstance(error)).toBe(true);
      return (error as Error).message;
    }
    throw new Error(`"${path}" was not refused`);
  };

  it('resolves a path under the folder', () => {
    expect(resolveInside(root, real, 'a/config.json')).toBe(join(real, 'a', 'config.json'));
    expect(resolveInside(root, real, 'a/in-link')).toBe(join(real, 'a', 'config.json'));
  });

  it('refuses "..", absolute paths, NUL bytes and symlinks that point out', () => {
    expect(refused('../secret.txt')).toMatch(/climbs out/);
    expect(refused('a/../../secret.txt')).toMatch(/climbs out/);
    expect(refused('a\\..\\..\\secret.txt')).toMatch(/climbs out/);
    expect(refused(join(base, 'secret.txt'))).toMatch(/absolute/);
    expect(refused('/etc/passwd')).toMatch(/absolute/);
    expect(refused('a/config.json\0.png')).toMatch(/NUL/);
    expect(refused('a/out-link')).toMatch(/symlink/);
  });
});
