import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The built `skillrl` CLI, run as a child process (so a test can SIGKILL it). */
export const CLI = join(
  dirname(createRequire(__filename).resolve('@skillrl/orchestrator/package.json')),
  'dist',
  'cli.js',
);

export interface Child {
  /** Kills the child with SIGKILL (from a fake server's request hook: at a chosen request). */
  kill(): void;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>;
}

export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Child {
  const child = spawn(process.execPath, [CLI, ...args, '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return {
    kill: () => {
      child.kill('SIGKILL');
    },
    done: new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, out, err }))),
  };
}

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

/** Every file under a folder, as text (to look for a secret anywhere in a run directory). */
export function everyText(dir: string): string {
  let text = '';
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) text += everyText(path);
    else text += readFileSync(path).toString('latin1');
  }
  return text;
}
