// The fake OpenAI-compatible server of bench/proposals.mjs, in its own process (as a real server would be):
// the LLM editor's requests get a valid SKILL.md, the task model's get an answer, each after LATENCY_MS.
// Prints its base URL on the first line of stdout; stops when stdin closes.
import { startFakeOpenAI } from '@skillrl/testkit';

const LATENCY = Number(process.env.LATENCY_MS ?? 300);

const editorReply = (index) =>
  [
    'Here is the revision.',
    '',
    '```markdown',
    '---',
    `name: qa-steps-${index % 7}`,
    'description: Work the question out step by step. Use for every question.',
    '---',
    '',
    '1. Read the question.',
    '2. Work it out.',
    '3. Give only the final answer.',
    '```',
    '',
  ].join('\n');

const server = await startFakeOpenAI({
  latencyMs: LATENCY,
  record: false,
  respond: (request, ctx) =>
    String(request.messages?.[0]?.content ?? '').startsWith('You are a skill editor')
      ? editorReply(ctx.index)
      : '42',
});
process.stdout.write(`${server.baseURL}\n`);
process.stdin.resume();
process.stdin.on('end', () => server.close().then(() => process.exit(0)));
