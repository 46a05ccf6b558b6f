import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

/** A port nothing listens on now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A real Redis server for a test (`startRedisServer`). */
export interface TestRedis {
  url: string;
  port: number;
  /** Kills the server and starts a fresh one on the same port: without persistence, everything is gone. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Every key and every value it holds, whatever the type (string, hash, list, set, sorted set, stream), as
   * one text, read with `redis-cli`: what a test searches to show that no key or value holds a secret.
   */
  contents(): Promise<string>;
}

const run = promisify(execFile);

/** The values of a key, by its type, as redis-cli prints them. */
const READ_BY_TYPE: Record<string, (key: string) => string[]> = {
  string: (key) => ['GET', key],
  hash: (key) => ['HGETALL', key],
  list: (key) => ['LRANGE', key, '0', '-1'],
  set: (key) => ['SMEMBERS', key],
  zset: (key) => ['ZRANGE', key, '0', '-1'],
  stream: (key) => ['XRANGE', key, '-', '+'],
};

/**
 * Debian's redis-server (or `bin`, default SKILLRL_TEST_REDIS_BIN, else `redis-server` on the PATH) as a child
 * process on a free port, with no persistence (`--save '' --appendonly no`): a real Redis for every test of a
 * queue (`@skillrl/queue`'s workers), never a mock, and nothing a test leaves behind. `restart()` is Redis
 * restarted without persistence: every key is gone, as after a crash.
 */
export async function startRedisServer(options: { bin?: string } = {}): Promise<TestRedis> {
  const bin = options.bin ?? process.env.SKILLRL_TEST_REDIS_BIN ?? 'redis-server';
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = () =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn(
        bin,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = proc;
      let out = '';
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve();
      };
      proc.stdout?.on('data', onData);
      proc.stderr?.on('data', onData);
      proc.on('error', (error) =>
        reject(
          new Error(
            `could not start ${bin} (${error.message}); install Debian's redis-server (apt-get install redis-server) or set SKILLRL_TEST_REDIS_BIN`,
          ),
        ),
      );
      proc.on('exit', (code) => {
        if (!out.includes('Ready to accept connections')) reject(new Error(`${bin} exited ${code}: ${out}`));
      });
    });
  const kill = () =>
    new Promise<void>((resolve) => {
      const proc = child;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
  // redis-cli beside the server (Debian installs both in /usr/bin), else on the PATH.
  const cliBin = bin.includes('/') ? join(dirname(bin), 'redis-cli') : 'redis-cli';
  const cli = async (...args: string[]) =>
    (await run(cliBin, ['-p', String(port), '--raw', ...args], { maxBuffer: 256 * 1024 * 1024 })).stdout;
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async restart() {
      await kill();
      await launch();
    },
    stop: kill,
    async contents() {
      const out: string[] = [];
      for (const key of (await cli('KEYS', '*')).split('\n').filter(Boolean)) {
        out.push(key);
        const read = READ_BY_TYPE[(await cli('TYPE', key)).trim()];
        if (read) out.push(await cli(...read(key)));
      }
      return out.join('\n');
    },
  };
}
