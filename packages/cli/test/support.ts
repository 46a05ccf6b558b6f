import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

// The configs and offline components of the orchestrator's tests (one home; they drive the CLI here).
export {
  evolveConfig,
  FIXTURES,
  internalizeConfig,
  plannerAgent,
  tempDir,
  writeConfig,
} from '../../orchestrator/test/support.js';

/** The built `skillrl` bin of this package. */
export const CLI = resolve(__dirname, '../dist/cli.js');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/** `skillrl <args>` as a child process of the built CLI, its output piped. */
export function startCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

/** `node <args>` in `cwd`, waited for: its exit code and output (a scaffold's tests or build, another bin). */
export function nodeSync(
  args: string[],
  cwd: string,
  options: { env?: NodeJS.ProcessEnv; timeout?: number } = {},
): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 120_000, ...options });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Waits for a child's exit: its code or signal and what it wrote to stdout and stderr. */
export function finish(child: ChildProcess): Promise<CliRun> {
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out, err })));
}

/** Every file under a folder. */
export function everyFile(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) out.push(...everyFile(p));
    else out.push(p);
  }
  return out;
}

/**
 * node_modules as `npm install` would give a scaffold written by `skillrl init adapter|estimator`: the
 * workspace's packages (this package's dependencies, the orchestrator among them), this CLI with them.
 */
export function linkInstall(target: string): void {
  const here = resolve(__dirname, '..');
  const from = join(here, 'node_modules');
  const nm = join(target, 'node_modules');
  mkdirSync(join(nm, '@skillrl'), { recursive: true });
  for (const entry of readdirSync(from)) {
    if (entry !== '@skillrl' && !entry.startsWith('.'))
      symlinkSync(join(from, entry), join(nm, entry), 'dir');
  }
  for (const entry of readdirSync(join(from, '@skillrl'))) {
    symlinkSync(join(from, '@skillrl', entry), join(nm, '@skillrl', entry), 'dir');
  }
  symlinkSync(here, join(nm, '@skillrl', 'cli'), 'dir');
}

/** The `--json` line a command printed (its last line of stdout). */
// biome-ignore lint/suspicious/noExplicitAny: a printed JSON result, inspected field by field.
export function jsonResult(run: CliRun): Record<string, any> {
  const line = run.out.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line);
  } catch {
    throw new Error(`no JSON result (exit ${run.code}):\n${run.out}\n${run.err}`);
  }
}

/** stderr less the `warning: …` lines a run prints about its config before it starts. */
export const withoutWarnings = (err: string) =>
  err
    .split('\n')
    .filter((line) => !line.startsWith('warning: '))
    .join('\n');

/** A port on which nothing listens: bound, then closed. */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
