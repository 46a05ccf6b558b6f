import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startRedisServer } from './start-redis-server.js';

/** One inline Redis command over a plain socket: the reply's first line. */
function send(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) {
        socket.end();
        resolve(reply.split('\r\n')[0] as string);
      }
    });
    socket.write(`${command}\r\n`);
  });
}

describe('startRedisServer', () => {
  it('a real redis-server on a free port; restart() loses every key (no persistence); stop() ends it', async () => {
    const redis = await startRedisServer();
    try {
      expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
      expect(await send(redis.port, 'SET k v')).toBe('+OK');
      expect(await send(redis.port, 'GET k')).toBe('$1');
      expect(await send(redis.port, 'HSET h field hidden-in-a-hash')).toBe(':1');
      expect(await send(redis.port, 'RPUSH l hidden-in-a-list')).toBe(':1');
      const contents = await redis.contents();
      for (const text of ['k', 'v', 'h', 'field', 'hidden-in-a-hash', 'l', 'hidden-in-a-list'])
        expect(contents.split('\n')).toContain(text);
      await redis.restart();
      expect(await redis.contents()).toBe('');
      expect(await send(redis.port, 'GET k')).toBe('$-1');
    } finally {
      await redis.stop();
    }
    await expect(send(redis.port, 'PING')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('a binary that is not there says what to install', async () => {
    await expect(startRedisServer({ bin: '/nonexistent/redis-server' })).rejects.toThrow(
      /apt-get install redis-server/,
    );
  });
});
