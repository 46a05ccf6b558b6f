import { availableParallelism } from 'node:os';
import { Script } from 'node:vm';
import {
  InvalidArgumentError,
  MissingFieldError,
  type Task,
  type Trajectory,
  type Verdict,
} from '@skillrl/core';
import { type AsyncVerifier, answerOf, checkThreshold, makeVerdict } from '../shared/index.js';
import { buildHarness } from './build-harness.js';
import type { CodeTest, CodeTestInput } from './code-test.js';
import { extractCode } from './extract-code.js';
import { limitConcurrency } from './limit-concurrency.js';
import { probeSandbox } from './probe-sandbox.js';
import { runSandboxed, type SandboxRun } from './run-sandboxed.js';

export interface CodeTestsOptions {
  name?: string;
  /** The tests, or a function of the task. Default: `task.metadata.tests` (strings or `{ name, code }`). */
  tests?: CodeTestInput[] | ((task: Task) => CodeTestInput[]);
  /** The program in the answer. Default: the last JavaScript fenced block, else the whole answer. */
  extractCode?: (answer: string) => string;
  extract?: (trajectory: Trajectory) => string;
  /** Wall-clock limit for the whole run (solution + every test). Default 5000 ms. */
  timeoutMs?: number;
  /** V8 heap limit (`--max-old-space-size`). Default 128 MiB. */
  memoryMb?: number;
  /** Address-space limit (`ulimit -v`) where the OS allows one. Default `memoryMb + 1024` MiB (node needs ~700). */
  addressSpaceMb?: number | null;
  /** Bytes of stdout + stderr read before the run is killed. Default 1 MiB. */
  outputLimitBytes?: number;
  /** Sandboxed runs in flight at once, per verifier. Default: the machine's available parallelism. */
  concurrency?: number;
  /** `auto` (default): a network namespace when the OS allows it, else the JS shim only. `shim`: force the shim. */
  network?: 'auto' | 'namespace' | 'shim';
  /** `zero` (default): any attempt at a blocked operation scores 0, even if the tests pass. `ignore`: tests decide. */
  onViolation?: 'zero' | 'ignore';
  /** The node binary. Default `process.execPath`. */
  nodePath?: string;
  /** Default 1: every test must pass. */
  threshold?: number;
}

const MEMORY_SIGNS =
  /heap out of memory|Array buffer allocation failed|allocation failed|Cannot allocate memory|out of memory/i;

function toTests(component: string, raw: unknown, where: string): CodeTest[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    throw new InvalidArgumentError(
      where,
      `${component} expected a non-empty array of tests (strings or { name, code })`,
    );
  }
  return raw.map((t, i) => {
    const test = typeof t === 'string' ? { code: t } : (t as Partial<CodeTest>);
    if (!test || typeof test.code !== 'string') {
      throw new InvalidArgumentError(
        `${where}[${i}]`,
        'expected a string or { name?: string, code: string }',
      );
    }
    try {
      // Compile (never run) each test here, so a broken test is the task author's error, not the model's 0.
      new Script(`(async function (assert) {\n${test.code}\n})`);
    } catch (cause) {
      throw new InvalidArgumentError(
        `${where}[${i}]`,
        `the test does not compile: ${(cause as Error).message}`,
        { cause },
      );
    }
    return { name: test.name ?? `test ${i + 1}`, code: test.code };
  });
}

function positive(component: string, key: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new InvalidArgumentError(
      `${component} options.${key}`,
      `expected a number > 0, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Runs model-written JavaScript against tests in a sandboxed child process. Score = fraction of tests
 * passed; a program that is killed (time, memory, output), crashes or exits before the tests finish, or
 * attempts a blocked operation (with `onViolation: 'zero'`), scores 0 and the reason says which.
 */
export function codeTests(options: CodeTestsOptions = {}): AsyncVerifier {
  const name = options.name ?? 'codeTests';
  const threshold = checkThreshold(name, options.threshold, 1);
  const timeoutMs = positive(name, 'timeoutMs', options.timeoutMs ?? 5000);
  const heapMb = Math.round(positive(name, 'memoryMb', options.memoryMb ?? 128));
  const addressSpaceMb =
    options.addressSpaceMb === null ? null : Math.round(options.addressSpaceMb ?? heapMb + 1024);
  const outputLimitBytes = positive(name, 'outputLimitBytes', options.outputLimitBytes ?? 1 << 20);
  const concurrency = Math.max(
    1,
    Math.floor(positive(name, 'concurrency', options.concurrency ?? availableParallelism())),
  );
  const nodePath = options.nodePath ?? process.execPath;
  const network = options.network ?? 'auto';
  const limit = limitConcurrency(concurrency);
  const fixedTests = Array.isArray(options.tests)
    ? toTests(name, options.tests, `${name} options.tests`)
    : undefined;

  return {
    name,
    async verify(task, trajectory) {
      const tests =
        fixedTests ??
        (typeof options.tests === 'function'
          ? toTests(name, options.tests(task), `${name} options.tests(task)`)
          : task.metadata?.tests === undefined
            ? (() => {
                throw new MissingFieldError(name, 'task.metadata.tests', 'or pass options.tests');
              })()
            : toTests(name, task.metadata.tests, `task "${task.id}" metadata.tests`));
      const support = await probeSandbox(nodePath);
      if (network === 'namespace' && !support.namespaces) {
        throw new InvalidArgumentError(
          `${name} options.network`,
          '"namespace" was required but unshare -rnpf does not work here; use "auto"',
        );
      }
      const answer = (options.extract ?? answerOf)(trajectory);
      const solution = (options.extractCode ?? extractCode)(answer);
      const run = await limit(() =>
        runSandboxed(
          buildHarness(solution, tests),
          // The CPU cap is generous (4× the wall-clock limit + 2 s) because GC threads make CPU time run faster
          // than the clock: the parent's timer is meant to fire first, the cap only catches orphans.
          {
            timeoutMs,
            heapMb,
            addressSpaceMb,
            outputLimitBytes,
            cpuSeconds: Math.ceil(timeoutMs / 1000) * 4 + 2,
          },
          support,
          { nodePath, network: network === 'namespace' ? 'auto' : network },
        ),
      );
      return judge(run, tests, threshold, options.onViolation ?? 'zero', {
        heapMb,
        outputLimitBytes,
        timeoutMs,
      });
    },
  };
}

function tail(text: string, max = 400): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `…${trimmed.slice(-max)}` : trimmed;
}

function judge(
  run: SandboxRun,
  tests: CodeTest[],
  threshold: number,
  onViolation: 'zero' | 'ignore',
  limits: { heapMb: number; outputLimitBytes: number; timeoutMs: number },
): Verdict {
  const results = tests.map((t) => ({ name: t.name, passed: false, error: undefined as string | undefined }));
  const violations = new Set<string>();
  let uncaught: { code: string; message: string } | undefined;
  let started = false;
  let done = false;
  for (const line of run.lines) {
    if (line.kind === 'start') started = true;
    else if (line.kind === 'done') done = true;
    else if (line.kind === 'violation') violations.add(line.what);
    else if (line.kind === 'uncaught') uncaught = line;
    else {
      const r = results[line.index];
      if (!r) continue;
      r.passed = line.kind === 'pass';
      if (line.kind === 'fail') {
        r.error = line.code ? `${line.code}: ${line.message}` : line.message;
        if (line.code === 'ERR_ACCESS_DENIED') violations.add(`permission denied (${line.message})`);
      }
    }
  }
  if (uncaught?.code === 'ERR_ACCESS_DENIED') violations.add(`permission denied (${uncaught.message})`);
  if (/ERR_ACCESS_DENIED/.test(run.stderr)) violations.add('permission denied (see stderr)');
  const passed = results.filter((r) => r.passed).length;
  const details = {
    sandbox: run.protections,
    tests: results.map((r) => (r.error === undefined ? { name: r.name, passed: r.passed } : r)),
    passed,
    total: tests.length,
    violations: [...violations],
    exitCode: run.exitCode,
    signal: run.signal,
    durationMs: run.durationMs,
    stdout: tail(run.stdout),
    stderr: tail(run.stderr),
  };
  const zero = (reason: string) => makeVerdict(0, threshold, reason, details);

  if (run.killedFor === 'timeout')
    return zero(`killed: still running after the ${limits.timeoutMs} ms time limit`);
  // unshare cannot re-raise SIGXCPU and reports this instead (util-linux); either way the CPU cap fired.
  if (run.signal === 'SIGXCPU' || /sigprocmask unblock failed/.test(run.stderr))
    return zero(`killed: exceeded the CPU-time limit (${run.protections.cpuSeconds} s)`);
  if (run.killedFor === 'output')
    return zero(`killed: wrote more than ${limits.outputLimitBytes} bytes of output`);
  if (run.killedFor === 'results') return zero('killed: flooded the results channel (fd 3)');
  if (!done && MEMORY_SIGNS.test(`${run.stderr} ${uncaught?.message ?? ''}`)) {
    return zero(
      `killed: exceeded the memory limit (${limits.heapMb} MiB heap${run.protections.addressSpaceMb ? `, ${run.protections.addressSpaceMb} MiB address space` : ''})`,
    );
  }
  if (violations.size > 0 && onViolation === 'zero') {
    return zero(`sandbox violation: attempted ${[...violations].slice(0, 3).join(', ')}`);
  }
  if (!done) {
    if (uncaught)
      return zero(
        `the program crashed${started ? ' during the tests' : ''}: ${uncaught.code ? `${uncaught.code}: ` : ''}${uncaught.message}`,
      );
    if (!started) {
      const firstError = run.stderr.split('\n').find((l) => /Error\b/.test(l));
      return zero(
        firstError
          ? `the program failed before the tests ran: ${firstError.trim()}`
          : `the program exited (code ${run.exitCode ?? 'none'}${run.signal ? `, signal ${run.signal}` : ''}) before the tests ran`,
      );
    }
    return zero(
      `the program exited (code ${run.exitCode ?? 'none'}${run.signal ? `, signal ${run.signal}` : ''}) before the tests finished (${passed}/${tests.length} had passed)`,
    );
  }
  const firstFailure = results.find((r) => !r.passed);
  const reason = firstFailure
    ? `${passed}/${tests.length} tests passed; first failure: ${firstFailure.name}: ${firstFailure.error ?? 'failed'}`
    : `all ${tests.length} tests passed`;
  return makeVerdict(passed / tests.length, threshold, reason, details);
}
