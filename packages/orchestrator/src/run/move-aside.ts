import { existsSync, renameSync } from 'node:fs';

/** `<dir>.previous-1`, `-2`, …: the first name not taken. */
export function freeName(dir: string): string {
  for (let n = 1; ; n++) {
    const candidate = `${dir}.previous-${n}`;
    if (!existsSync(candidate)) return candidate;
  }
}

/**
 * Moves an existing directory to `freeName(dir)` and returns where it went (undefined when there was none).
 * An earlier run is kept beside, never deleted: `skillrl run --fresh` and the demo both start over this way.
 */
export function moveAside(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const kept = freeName(dir);
  renameSync(dir, kept);
  return kept;
}
