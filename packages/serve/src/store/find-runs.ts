import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { streamFiles } from '@skillrl/core';
import { reallyInside } from './inside-dir.js';

/** A run directory found under the served folder. */
export interface FoundRun {
  /** Its path relative to the served folder, with `/` (the folder's own name when it is itself a run). */
  id: string;
  /** Absolute path. */
  dir: string;
}

/** Folders never searched: a run's own content, tooling, and what the store moves aside. */
const SKIPPED = new Set(['node_modules', 'segments', 'checkpoints', 'skills', 'candidates', 'damaged']);
/** A bound on the folders visited, so pointing serve at a home folder stays quick. */
const MAX_VISITS = 5000;

/** A folder a run wrote: its identity file, or the events stream in either layout. */
export function isRunDir(dir: string): boolean {
  return (
    existsSync(join(dir, 'run.json')) ||
    existsSync(join(dir, 'events.jsonl')) ||
    streamFiles(dir, 'events').length > 0
  );
}

/**
 * The run directories under `root` (or `root` itself), searched `maxDepth` folders deep, without entering a
 * run directory and without following a symlink out of the folder (`realRoot` is root's real path). Runs
 * are listed by id, so a request names a run by an id from this list and never by a path.
 */
export function findRuns(root: string, realRoot: string, maxDepth = 3): FoundRun[] {
  if (isRunDir(root)) return [{ id: basename(root) || 'run', dir: root }];
  const found: FoundRun[] = [];
  let visits = 0;
  const walk = (dir: string, depth: number) => {
    if (depth > maxDepth || visits++ > MAX_VISITS) return;
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      return; // unreadable (permissions) or gone meanwhile: nothing to list
    }
    for (const name of entries) {
      if (name.startsWith('.') || SKIPPED.has(name)) continue;
      const path = join(dir, name);
      try {
        if (!statSync(path).isDirectory()) continue;
      } catch {
        continue;
      }
      if (!reallyInside(realRoot, path)) continue;
      if (isRunDir(path)) found.push({ id: relative(root, path).split(sep).join('/'), dir: path });
      else walk(path, depth + 1);
    }
  };
  walk(root, 1);
  return found;
}
