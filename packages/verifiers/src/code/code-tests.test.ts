import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  InvalidArgumentError,
  MissingFieldError,
  type Task,
  type Trajectory,
  type Verdict,
} from '@skillrl/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeTests } from './code-tests.js';
import { probeSandbox } from './probe-sandbox.js';

const task = (tests?: unknown): Task => ({
  id: 'add',
  family: 'code',
  split: 'test',
  prompt: 'Write add(a, b).',
  ...(tests === undefined ? {} : { metadata: { tests: tests as string[] } }),
});
const traj = (answer: string): Trajectory => ({
  id: 'r',
  taskId: 'add',
  family: 'code',
  condition: 0,
  steps: [],
  answer,
  reward: 0,
  verdict: { score: 0, passed: false },
});
const ADD_TESTS = [
  { name: 'small', code: 'assert.equal(add(2, 3), 5);' },
  { name: 'negative', code: 'assert.equal(add(-1, 1), 0);' },
  { name: 'async', code: 'await new Promise((r) => setTimeout(r, 5)); assert.equal(add(0.5, 0.25), 0.75);' },
];

// One verifier for the whole file: the limiter keeps at most 3 sandboxes in flight on a 2-core machine.
const verifier = codeTests({ tests: ADD_TESTS, timeoutMs: 2000, memoryMb: 64, concurrency: 3 });
const shimOnly = codeTests({
  tests: ADD_TESTS,
  timeoutMs: 2000,
  memoryMb: 64,
  concurrency: 3,
  network: 'shim',
});
const details = (v: Verdict) =>
  v.details as { sandbox: { network: string }; violations: string[]; tests: { passed: boolean }[] };

let dir: string;
let server: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skillrl-host-'));
  await writeFile(join(dir, 'secret.txt'), 'host-secret-7f3a');
  server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
  // Whatever the hostile programs tried, the host's server saw no connection.
  expect(connections).toBe(0);
});

describe.concurrent('codeTests: honest programs', () => {
  it('scores 1 when every test passes, and records the protections in force', async () => {
    const v = await verifier.verify(task(), traj('```js\nfunction add(a, b) { return a + b; }\n```'));
    expect(v).toMatchObject({ score: 1, passed: true, reason: 'all 3 tests passed' });
    const support = await probeSandbox(process.execPath);
    expect(details(v).sandbox).toMatchObject({
      permissionModel: true,
      network: support.namespaces ? 'namespace' : 'shim',
      heapMb: 64,
    });
  });

  it('scores the fraction of tests passed and names the first failure', async () => {
    // Integer-only add: 2 of 3 tests pass (the 0.5 + 0.25 one fails).
    const v = await verifier.verify(
      task(),
      traj('function add(a, b) { return Math.round(a) + Math.round(b); }'),
    );
    expect(v.score).toBeCloseTo(2 / 3, 12);
    expect(v.passed).toBe(false);
    expect(v.reason).toMatch(/^2\/3 tests passed; first failure: async: ERR_ASSERTION/);
  });

  it('lets tests see module.exports and sloppy-mode code', async () => {
    const v = await codeTests({
      tests: ['assert.equal(module.exports.twice(4), 8); assert.equal(counter, 1);'],
      timeoutMs: 2000,
    }).verify(task(), traj('counter = 1; module.exports = { twice: (x) => x * 2 };'));
    expect(v.score).toBe(1);
  });

  it('keeps the fs API usable: promisify, realpathSync.native and reading its own file', async () => {
    const v = await codeTests({
      tests: [
        "assert.equal(typeof require('fs').realpathSync.native, 'function');",
        "assert.equal(await require('util').promisify(require('fs').exists)(__filename), true);",
        "assert.match(require('fs').readFileSync(__filename, 'utf8'), /__skillrlRegister/);",
      ],
      timeoutMs: 3000,
    }).verify(task(), traj('// no solution needed'));
    expect(v).toMatchObject({ score: 1, reason: 'all 3 tests passed' });
  });

  it('reads tests from task.metadata.tests', async () => {
    const v = await codeTests({ timeoutMs: 2000 }).verify(
      task(['assert.equal(add(1, 1), 2)']),
      traj('const add = (a, b) => a + b;'),
    );
    expect(v.score).toBe(1);
  });

  it('cannot forge results: a shadowed require, fd-3 lines and a replaced assert change nothing', async () => {
    const forger = [
      'function require() { return { writeSync() {}, readSync() { return 0; } }; }',
      "try { require('fs').writeSync(3, 'pass 0\\npass 1\\npass 2\\ndone\\n'); } catch {}",
      'try { process.stdio; globalThis.assert = { equal() {} }; } catch {}',
      'function add() { return NaN; }',
    ].join('\n');
    const v = await verifier.verify(task(), traj(forger));
    expect(v.score).toBe(0);
    expect(details(v).tests.every((t) => !t.passed)).toBe(true);
  });
});

describe.concurrent('codeTests: hostile programs are contained and score 0', () => {
  it('infinite loop: killed at the time limit', async () => {
    const started = Date.now();
    const v = await verifier.verify(task(), traj('while (true) {}'));
    expect(v).toMatchObject({ score: 0, passed: false });
    expect(v.reason).toBe('killed: still running after the 2000 ms time limit');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('memory bomb on the heap and off it (Buffers)', async () => {
    // A generous time limit, so that on a busy machine the memory limit is what stops them.
    const verifier = codeTests({ tests: ADD_TESTS, timeoutMs: 20_000, memoryMb: 64 });
    const heap = await verifier.verify(
      task(),
      traj('const a = []; while (true) a.push(new Array(1e5).fill(1.5));'),
    );
    expect(heap.score).toBe(0);
    expect(heap.reason).toMatch(/^killed: exceeded the memory limit/);
    const buffers = await verifier.verify(
      task(),
      traj('const a = []; while (true) a.push(Buffer.alloc(64 * 1024 * 1024, 1));'),
    );
    expect(buffers.score).toBe(0);
    expect(buffers.reason).toMatch(/^killed: exceeded the memory limit/);
  });

  it('process.exit before the tests', async () => {
    const v = await verifier.verify(task(), traj('function add(a, b) { return a + b; }\nprocess.exit(0);'));
    expect(v).toMatchObject({ score: 0, reason: 'the program exited (code 0) before the tests ran' });
  });

  it('process.exit in the middle of the tests', async () => {
    const v = await verifier.verify(
      task(),
      traj('function add(a, b) { if (a < 0) process.exit(3); return a + b; }'),
    );
    expect(v.score).toBe(0);
    expect(v.reason).toMatch(/exited \(code 3\) before the tests finished \(1\/3 had passed\)/);
  });

  it('writing a file: denied, and the file does not exist afterwards', async () => {
    const target = join(dir, 'pwned.txt');
    const v = await verifier.verify(
      task(),
      traj(`require('fs').writeFileSync(${JSON.stringify(target)}, 'x');`),
    );
    expect(v.score).toBe(0);
    expect(v.reason).toMatch(/^sandbox violation: attempted fs\.writeFileSync/);
    expect(existsSync(target)).toBe(false);
  });

  it('writing a file and swallowing the error still scores 0', async () => {
    const target = join(dir, 'quiet.txt');
    const code = `function add(a, b) { try { require('fs').writeFileSync(${JSON.stringify(target)}, 'x'); } catch {} return a + b; }`;
    const v = await verifier.verify(task(), traj(code));
    expect(v.score).toBe(0);
    expect(details(v).violations).toContain('fs.writeFileSync');
    expect(existsSync(target)).toBe(false);
    // With onViolation: 'ignore' the contained attempt is not punished: the tests decide.
    const lenient = codeTests({ tests: ADD_TESTS, timeoutMs: 2000, onViolation: 'ignore' });
    expect((await lenient.verify(task(), traj(code))).score).toBe(1);
  });

  it('spawning a process', async () => {
    const target = join(dir, 'spawned.txt');
    const v = await verifier.verify(task(), traj(`require('child_process').execSync('touch ${target}');`));
    expect(v.score).toBe(0);
    expect(v.reason).toMatch(/sandbox violation: attempted child_process\.execSync/);
    expect(existsSync(target)).toBe(false);
  });

  it('opening a socket to a server on 127.0.0.1 (network namespace when available)', async () => {
    const code = `const s = require('net').connect(${port}, '127.0.0.1'); s.on('error', () => {}); function add(a, b) { return a + b; }`;
    const v = await verifier.verify(task(), traj(code));
    expect(v.score).toBe(0);
    expect(v.reason).toMatch(/sandbox violation: attempted net\.connect/);
    expect(connections).toBe(0);
  });

  it('opening a socket or fetching with the JS shim alone', async () => {
    const socket = await shimOnly.verify(
      task(),
      traj(`new (require('net').Socket)().connect(${port}, '127.0.0.1');`),
    );
    expect(details(socket).sandbox.network).toBe('shim');
    expect(socket.score).toBe(0);
    expect(socket.reason).toMatch(/net\.Socket\.connect/);
    const fetched = await shimOnly.verify(
      task(),
      traj(`function add(a, b) { return a + b; }\nfetch('http://127.0.0.1:${port}/').catch(() => {});`),
    );
    expect(fetched.score).toBe(0);
    expect(details(fetched).violations).toContain('fetch');
    const http = await shimOnly.verify(task(), traj(`require('http').get('http://127.0.0.1:${port}/');`));
    expect(http.reason).toMatch(/http\.get/);
    expect(connections).toBe(0);
  });

  it('reading a file outside the allowed one: denied, and its content never appears', async () => {
    const v = await verifier.verify(
      task(),
      traj(`console.log(require('fs').readFileSync(${JSON.stringify(join(dir, 'secret.txt'))}, 'utf8'));`),
    );
    expect(v.score).toBe(0);
    expect(v.reason).toMatch(/sandbox violation: attempted fs\.readFileSync/);
    expect(JSON.stringify(v)).not.toContain('host-secret-7f3a');
  });

  it('signalling the host process', async () => {
    const v = await verifier.verify(task(), traj(`process.kill(${process.pid}, 'SIGTERM');`));
    expect(v.score).toBe(0);
    expect(v.reason).toMatch(/process\.kill/);
  });

  it('flooding the output: killed at the output cap', async () => {
    const flood = codeTests({ tests: ADD_TESTS, timeoutMs: 5000, outputLimitBytes: 64 * 1024 });
    const v = await flood.verify(
      task(),
      traj("const line = 'x'.repeat(1000) + '\\n'; for (;;) require('fs').writeSync(1, line);"),
    );
    expect(v).toMatchObject({ score: 0, reason: `killed: wrote more than ${64 * 1024} bytes of output` });
  });

  it('a syntax error', async () => {
    const v = await verifier.verify(task(), traj('function add(a, b) { return a + ; }'));
    expect(v.score).toBe(0);
    expect(v.reason).toMatch(/failed before the tests ran: SyntaxError/);
  });
});

describe('codeTests: configuration errors are typed', () => {
  it('a task without tests', async () => {
    const error = await codeTests()
      .verify(task(), traj('1'))
      .catch((e: unknown) => e);
    expect(MissingFieldError.isInstance(error)).toBe(true);
  });

  it('a test that does not compile is the author error, reported before any run', () => {
    const make = () => codeTests({ tests: ['assert.equal(('] });
    expect(make).toThrow(/options\.tests\[0\]: the test does not compile/);
    try {
      make();
    } catch (e) {
      expect(InvalidArgumentError.isInstance(e)).toBe(true);
    }
  });
});
