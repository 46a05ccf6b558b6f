import { collectRollouts, createOpenAIAgent } from '@skillrl/rollout';
import household from '@skillrl/task-household';
import { startFakeOpenAI } from '@skillrl/testkit';

// A local fake endpoint so the example runs offline; point baseURL at vLLM, Ollama or OpenAI instead.
const server = await startFakeOpenAI({ script: ['I should look around.\nAction: look'] });
const agent = createOpenAIAgent({
  model: 'Qwen/Qwen3-8B',
  baseURL: server.baseURL,
  temperature: 1,
  maxTokens: 256,
  logprobs: true,
  prices: { 'Qwen/Qwen3-8B': { input: 0.05, output: 0.2 } },
});

const tasks = await household.load({ split: 'train', limit: 4, seed: 0 });
const skills = household.skills();
const run = collectRollouts({
  tasks,
  adapter: household,
  agent,
  skills: (task) => skills.find((s) => s.name !== 'household-general' && s.families?.includes(task.family)),
  groupSize: 4,
  pairing: { rho: 0.5 },
  concurrency: 16,
  maxSteps: 5,
  seed: 0,
});
for await (const t of run) console.log(t.id, t.condition, t.reward, t.steps.length);
console.log(run.summary());
await server.close();
