import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The built `skillrl` CLI, run as a child process (so a test can SIGKILL it). */
export const CLI = join(
  dirname(createRequire(import.meta.url).resolve('@skillrl/cli/package.json')),
  'dist',
  'cli.js',
);

export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

export interface CliChild {
  /** Kills the child with SIGKILL (from a fake server's request hook: at a chosen request). */
  kill(): void;
  done: Promise<CliExit>;
}

/** `skillrl <args> --json` as a child process of the built CLI. */
export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env): CliChild {
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
