import { type ChildProcess, spawn } from 'node:child_process';
import { redactSecrets } from '@skillrl/core';

/**
 * The reaper: a small Node process that leads the program's process group. It starts the command in its own
 * group (stdout and stderr straight through to us), exits as the command exits (re-raising its signal), and
 * kills the whole group when its stdin closes: that is, when the session that started it dies, even by
 * SIGKILL, which no handler in the session itself can catch. Linux has no portable "die with your parent"
 * for a plain `spawn`; this pipe is ours.
 */
const REAPER = `
const { spawn } = require('node:child_process');
const [command, ...args] = JSON.parse(process.argv[1]);
const forward = process.argv[2] === 'stdin';
let child;
try {
  child = spawn(command, args, { stdio: [forward ? 'pipe' : 'ignore', 'inherit', 'inherit'] });
} catch (e) {
  process.stderr.write('skillrl: cannot start ' + JSON.stringify(command) + ': ' + e.message + '\\n');
  process.exit(127);
}
child.on('error', (e) => {
  process.stderr.write('skillrl: cannot start ' + JSON.stringify(command) + ': ' + e.message + '\\n');
  process.exit(127);
});
const killGroup = () => { try { process.kill(-process.pid, 'SIGKILL'); } catch { process.exit(137); } };
// With 'stdin', what the session writes (a reused program's episodes, one JSON line each) goes through.
if (forward) {
  child.stdin.on('error', () => {});
  process.stdin.on('data', (d) => child.stdin.write(d));
}
process.stdin.on('end', killGroup);
process.stdin.on('close', killGroup);
process.stdin.on('error', killGroup);
process.stdin.resume();
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => { try { child.kill(s); } catch {} });
child.on('exit', (code, signal) => {
  process.stdin.removeAllListeners();
  if (signal) {
    for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.removeAllListeners(s);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 0);
});
`;

/** The exit code the reaper gives when the command could not be started. */
export const SPAWN_FAILED = 127;

export interface SpawnedProgram {
  readonly pid: number;
  /** Writes one line to the program's stdin (`stdin: true` only). */
  writeLine(line: string): void;
  /** Called with each complete line the program prints on stdout. */
  onLine(listener: (line: string) => void): void;
  /** Resolves when the program (and so its reaper) has exited. */
  readonly exited: Promise<ProgramExit>;
  /** What it printed on stdout so far (capped at `maxStdoutBytes`, keeping the end). */
  stdout(): string;
  /** The last `stderrTailBytes` of its stderr, secrets redacted. */
  stderrTail(): string;
  /** Kills the whole process group (the program and everything it started). Idempotent. */
  kill(signal?: NodeJS.Signals): void;
}

export interface ProgramExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnProgramOptions {
  command: readonly string[];
  cwd?: string;
  env: NodeJS.ProcessEnv;
  stderrTailBytes?: number;
  maxStdoutBytes?: number;
  /** Give the program a stdin the session writes to (a reused program reads its episodes there). */
  stdin?: boolean;
}

/** Starts `command` under a reaper in a new process group (see REAPER). */
export function spawnProgram(options: SpawnProgramOptions): SpawnedProgram {
  const tailBytes = options.stderrTailBytes ?? 4096;
  const maxStdout = options.maxStdoutBytes ?? 1 << 20;
  const reaperArgs = ['-e', REAPER, JSON.stringify(options.command), ...(options.stdin ? ['stdin'] : [])];
  const child: ChildProcess = spawn(process.execPath, reaperArgs, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  const listeners: ((line: string) => void)[] = [];
  let partial = '';
  child.stdout?.on('data', (d: string) => {
    out += d;
    if (out.length > maxStdout) out = out.slice(out.length - maxStdout);
    if (listeners.length === 0) return;
    partial += d;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    if (partial.length > maxStdout) partial = partial.slice(partial.length - maxStdout);
    for (const line of lines) for (const listener of listeners) listener(line);
  });
  child.stderr?.on('data', (d: string) => {
    err += d;
    if (err.length > tailBytes * 2) err = err.slice(err.length - tailBytes);
  });
  // The pipe to the reaper stays open for the program's life; nothing is ever written to it.
  child.stdin?.on('error', () => {});
  let done = false;
  const exited = new Promise<ProgramExit>((resolve) => {
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (done) return;
      done = true;
      resolve({ code, signal });
    };
    child.on('error', () => finish(SPAWN_FAILED, null));
    // 'close': the exit and every byte of stdout and stderr.
    child.on('close', (code, signal) => finish(code, signal));
  });
  const kill = (signal: NodeJS.Signals = 'SIGKILL') => {
    if (done || child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  return {
    pid: child.pid ?? -1,
    writeLine: (line) => {
      if (!done) child.stdin?.write(`${line}\n`);
    },
    onLine: (listener) => {
      listeners.push(listener);
    },
    exited,
    stdout: () => out,
    stderrTail: () => redactSecrets(err.length > tailBytes ? err.slice(err.length - tailBytes) : err),
    kill,
  };
}
