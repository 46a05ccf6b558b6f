import { type FakeTinkerServer, startFakeTinker, TINY_CHAT_MODEL, tinyChatDir } from '@skillrl/testkit';
import { afterEach } from 'vitest';
import { createTinkerAgent, type TinkerAgent } from '../src/index.js';

// What every test file of this package starts from: fake Tinker servers and Tinker agents closed after each
// test, and the small agent most tests train (tiny-chat, LoRA rank 8, seed 5, 6 tokens a turn).

const servers: FakeTinkerServer[] = [];
const agents: TinkerAgent[] = [];
afterEach(async () => {
  for (const a of agents.splice(0)) a.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A fake Tinker server, closed after the test. */
export async function fake(options: Parameters<typeof startFakeTinker>[0] = {}): Promise<FakeTinkerServer> {
  const server = await startFakeTinker(options);
  servers.push(server);
  return server;
}

/** An agent (or anything with `close()` of it) closed after the test. */
export function closeAfter(agent: TinkerAgent): TinkerAgent {
  agents.push(agent);
  return agent;
}

/** A fake server and the tiny-chat agent on it; `extra` overrides or adds agent options. */
export async function setupAgent(
  extra: Record<string, unknown> = {},
): Promise<{ server: FakeTinkerServer; agent: TinkerAgent }> {
  const server = await fake();
  const agent = closeAfter(
    createTinkerAgent({
      baseURL: server.url,
      baseModel: TINY_CHAT_MODEL,
      tokenizer: tinyChatDir(),
      loraRank: 8,
      seed: 5,
      maxTokens: 6,
      futures: { pollIntervalMs: 1 },
      ...extra,
    }),
  );
  return { server, agent };
}
