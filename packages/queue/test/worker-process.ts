import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

export interface WorkerEvent {
  pid: number;
  /** `start`: an episode's first decision (printed only with SKILLRL_TEST_BLOCK_MS); `stopped`: closed. */
  kind: 'ready' | 'start' | 'done' | 'failed' | 'stopped';
  episodeId?: string;
  /** For `start`: the episode's task. */
  taskId?: string;
  reward?: number;
  error?: string;
  /** For `stopped`: whether Redis answered when the signal came. */
  reachable?: boolean;
}

export interface WorkerProcess {
  child: ChildProcess;
  events: WorkerEvent[];
  /** What it wrote to stderr so far (its warnings: Redis lost, errors). */
  stderr(): string;
  ready: Promise<void>;
  /** Resolves once this worker has finished `n` jobs. */
  done(n: number): Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * A worker as a real child process (a fixture script, household-worker.mjs unless `script` names
 * another), its job events parsed from stdout. `lockMs` 0 leaves the library's default lock.
 */
export function startWorker(
  url: string,
  queue: string,
  options: { concurrency?: number; lockMs?: number; env?: Record<string, string>; script?: string } = {},
): WorkerProcess {
  const child = spawn(
    process.execPath,
    [
      fixture(options.script ?? 'household-worker.mjs'),
      url,
      queue,
      String(options.concurrency ?? 1),
      String(options.lockMs ?? 2000),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } },
  );
  const events: WorkerEvent[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.startsWith('{')) events.push(JSON.parse(line) as WorkerEvent);
      for (const w of waiters.splice(0)) w();
      nl = buffer.indexOf('\n');
    }
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const until = (test: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (test()) return resolve();
        if (child.exitCode !== null) return reject(new Error(`worker exited ${child.exitCode}: ${stderr}`));
        waiters.push(check);
      };
      child.once('exit', () => {
        if (!test()) reject(new Error(`worker exited ${child.exitCode}: ${stderr}`));
      });
      check();
    });
  return {
    child,
    events,
    stderr: () => stderr,
    ready: until(() => events.some((e) => e.kind === 'ready')),
    done: (n) => until(() => events.filter((e) => e.kind === 'done').length >= n),
    kill: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      }),
  };
}
