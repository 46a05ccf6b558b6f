import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type HarnessLine, NONCE_LENGTH, parseHarnessLine } from './build-harness.js';
import type { SandboxSupport } from './probe-sandbox.js';

export interface SandboxLimits {
  timeoutMs: number;
  heapMb: number;
  /** `ulimit -v` in MiB, or null for none. */
  addressSpaceMb: number | null;
  outputLimitBytes: number;
  /** `ulimit -t`: a backstop that kills a runaway even if the parent dies and its timer never fires. */
  cpuSeconds: number;
}

export interface SandboxProtections {
  permissionModel: true;
  /** `namespace`: a fresh network namespace (no interfaces but a down loopback); `shim`: JS APIs replaced only. */
  network: 'namespace' | 'shim';
  pidNamespace: boolean;
  heapMb: number;
  addressSpaceMb: number | null;
  /** `ulimit -t`, or null where the OS offers none. */
  cpuSeconds: number | null;
  timeoutMs: number;
  outputLimitBytes: number;
}

export interface SandboxRun {
  lines: HarnessLine[];
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  killedFor?: 'timeout' | 'output' | 'results';
  stdout: string;
  stderr: string;
  durationMs: number;
  protections: SandboxProtections;
}

// Process groups still running. If this process exits while runs are in flight (a crash, process.exit), they
// are killed on the way out instead of being left as orphans.
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function trackGroup(pid: number): void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const group of liveGroups) {
        try {
          process.kill(-group, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    });
  }
  liveGroups.add(pid);
}

/** Room on fd 3 for the harness's own lines; more than this means the solution is flooding it. */
const RESULTS_LIMIT_BYTES = 1 << 20;

/**
 * Writes the script to a fresh temp directory and runs it: permission model (read of that file only), a new
 * process group the parent kills whole, and where available fresh user/network/PID namespaces and ulimit -v.
 */
export async function runSandboxed(
  script: string,
  limits: SandboxLimits,
  support: SandboxSupport,
  options: { nodePath: string; network: 'auto' | 'namespace' | 'shim' },
): Promise<SandboxRun> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'skillrl-code-')));
  const file = join(dir, 'solution.cjs');
  try {
    await writeFile(file, script, { mode: 0o600 });
    const useNamespace = options.network !== 'shim' && support.namespaces;
    const addressSpaceMb = support.ulimit ? limits.addressSpaceMb : null;
    const nodeArgs = [
      '--no-warnings',
      '--experimental-permission',
      `--allow-fs-read=${file}`,
      `--max-old-space-size=${limits.heapMb}`,
      file,
    ];
    let command = [options.nodePath, ...nodeArgs];
    if (useNamespace) command = ['unshare', '-rnpf', '--kill-child', ...command];
    const cpuSeconds = support.ulimit ? limits.cpuSeconds : null;
    if (support.ulimit) {
      const limitsScript = `${addressSpaceMb !== null ? 'ulimit -v "$1" && ' : ''}ulimit -t "$2" && shift 2 && exec "$@"`;
      command = [
        '/bin/sh',
        '-c',
        limitsScript,
        'sh',
        String((addressSpaceMb ?? 0) * 1024),
        String(cpuSeconds),
        ...command,
      ];
    }
    const protections: SandboxProtections = {
      permissionModel: true,
      network: useNamespace ? 'namespace' : 'shim',
      pidNamespace: useNamespace,
      heapMb: limits.heapMb,
      addressSpaceMb,
      cpuSeconds,
      timeoutMs: limits.timeoutMs,
      outputLimitBytes: limits.outputLimitBytes,
    };
    return await execute(command, dir, limits, protections);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function execute(
  command: string[],
  cwd: string,
  limits: SandboxLimits,
  protections: SandboxProtections,
): Promise<SandboxRun> {
  return new Promise((resolve) => {
    const started = performance.now();
    const nonce = randomBytes(NONCE_LENGTH / 2).toString('hex');
    const [file, ...args] = command as [string, ...string[]];
    // detached: the child leads a new process group, so one kill(-pid) reaches everything it started.
    const child = spawn(file, args, {
      cwd,
      detached: process.platform !== 'win32',
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      // A clean environment: no API keys or NODE_OPTIONS from the host reach the model's code.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      windowsHide: true,
    });
    const groupLeader = process.platform !== 'win32' ? child.pid : undefined;
    if (groupLeader !== undefined) trackGroup(groupLeader);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outputBytes = 0;
    let resultsText = '';
    let resultsBytes = 0;
    const lines: HarnessLine[] = [];
    let killedFor: SandboxRun['killedFor'];
    let settled = false;

    const killGroup = () => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const kill = (why: NonNullable<SandboxRun['killedFor']>) => {
      killedFor ??= why;
      killGroup();
    };
    const timer = setTimeout(() => kill('timeout'), limits.timeoutMs);
    const capture = (sink: Buffer[]) => (chunk: Buffer) => {
      const room = limits.outputLimitBytes - outputBytes;
      if (room > 0) sink.push(chunk.subarray(0, room));
      outputBytes += chunk.length;
      if (outputBytes > limits.outputLimitBytes) kill('output');
    };
    child.stdout?.on('data', capture(out));
    child.stderr?.on('data', capture(err));
    const results = child.stdio[3] as NodeJS.ReadableStream | null;
    results?.on('data', (chunk: Buffer) => {
      resultsBytes += chunk.length;
      if (resultsBytes > RESULTS_LIMIT_BYTES) return kill('results');
      resultsText += chunk.toString('latin1');
      let newline = resultsText.indexOf('\n');
      while (newline >= 0) {
        const parsed = parseHarnessLine(resultsText.slice(0, newline), nonce);
        resultsText = resultsText.slice(newline + 1);
        if (parsed) {
          lines.push(parsed);
          // The verdict is complete; whatever the solution left running (timers, servers) is not our business.
          if (parsed.kind === 'done') killGroup();
        }
        newline = resultsText.indexOf('\n');
      }
    });
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      killGroup();
      if (groupLeader !== undefined) liveGroups.delete(groupLeader);
      const run: SandboxRun = {
        lines,
        exitCode,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        durationMs: Math.round(performance.now() - started),
        protections,
      };
      if (killedFor) run.killedFor = killedFor;
      resolve(run);
    };
    child.on('error', (error) => {
      err.push(Buffer.from(`spawn failed: ${error.message}`));
      finish(null, null);
    });
    child.on('close', (code, signal) => finish(code, signal));
    child.stdin?.on('error', () => {
      // The child may exit before reading its nonce; nothing to do.
    });
    child.stdin?.end(nonce);
  });
}
