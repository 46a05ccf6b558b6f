import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The published CommonJS build, in plain Node: p-limit is ESM-only, so `require()` of a build that
// imports it gets a namespace instead of the function ("(0, import_p_limit.default) is not a function").
describe('require("@skillrl/rollout")', () => {
  it('creates an OpenAI agent that acts against the fake server (testkit required too)', () => {
    const script = `
const { createOpenAIAgent } = require(${JSON.stringify(resolve(__dirname, '../dist/index.cjs'))});
const { startFakeOpenAI } = require('@skillrl/testkit');
(async () => {
  const server = await startFakeOpenAI({ script: ['Action: look'] });
  const agent = createOpenAIAgent({ model: 'fake', baseURL: server.baseURL, apiKey: 'test-key-000' });
  const step = await agent.act({ task: { id: 't', family: 'f', split: 'train', prompt: 'p' }, condition: 0, observation: 'o', history: [], stepIndex: 0 });
  await server.close();
  console.log(step.action);
})().catch((e) => { console.error(e); process.exit(1); });
`;
    const r = spawnSync(process.execPath, ['-e', script], {
      cwd: resolve(__dirname, '..'),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('look');
  });
});
