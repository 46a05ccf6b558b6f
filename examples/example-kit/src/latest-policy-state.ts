import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The policy state in the run's latest checkpoint (the Tinker agent's or editor's `toJSON`). */
export function latestPolicyState(
  dir: string,
  role: 'agent' | 'generator',
): { samplerPath: string; statePath: string; updates: number; trainingRuns: string[] } {
  const folder = join(dir, 'checkpoints');
  const snapshots = readdirSync(folder)
    .filter((f) => /^snapshot-.*\.json$/.test(f))
    .sort();
  const latest = JSON.parse(readFileSync(join(folder, snapshots.at(-1) as string), 'utf8')) as {
    value: { components: Record<string, { value: never }> };
  };
  return latest.value.components[role]?.value as never;
}
