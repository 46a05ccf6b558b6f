// A test program: plays one skillrl episode through the MCP server and the proxy, as a user's agent would.
// PROGRAM_MODE picks a behaviour: loop (household: act until done), qa-answer (one call, stdout answer),
// qa-submit (a task tool, then submit), crash, hang, garbage, no-call, pidfile (loop; writes its pid first).
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const mode = process.env.PROGRAM_MODE ?? 'loop';
for (const name of ['SKILLRL_TASK_FILE', 'SKILLRL_MCP_URL', 'OPENAI_BASE_URL', 'OPENAI_API_KEY']) {
  if (!process.env[name]) {
    process.stderr.write(`missing ${name}\n`);
    process.exit(2);
  }
}
if (process.env.PROGRAM_PIDS) appendFileSync(process.env.PROGRAM_PIDS, `${process.pid}\n`);
const { task, observation, condition, tools } = JSON.parse(
  readFileSync(process.env.SKILLRL_TASK_FILE, 'utf8'),
);

async function chat(messages) {
  const res = await fetch(`${process.env.OPENAI_BASE_URL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.OPENAI_API_KEY}` },
    body: JSON.stringify({ model: 'program-model', messages }),
  });
  if (!res.ok) throw new Error(`model call failed: ${res.status} ${await res.text()}`);
  const body = await res.json();
  return body.choices[0].message.content ?? '';
}

if (mode === 'no-call') {
  console.log('I answer without a model.');
  process.exit(0);
}

const skillDir = process.env.SKILLRL_SKILL_DIR;
const skillNames = skillDir && existsSync(skillDir) ? readdirSync(skillDir) : [];
const facts = [
  `condition ${condition}`,
  `skill folder: ${skillNames.length > 0 ? skillNames.join(',') : 'none'}`,
  `upstream key visible: ${process.env.FAKE_UPSTREAM_KEY ? 'yes' : 'no'}`,
].join('; ');
const messages = [{ role: 'system', content: 'You act in a text world. Reply with "Action: <action>".' }];

if (mode === 'qa-answer') {
  messages.push({ role: 'user', content: `${facts}\n${task.prompt}` });
  const reply = await chat(messages);
  console.log('thinking done');
  console.log(JSON.stringify({ answer: reply.replace(/^Action:\s*/, '').trim() }));
  process.exit(0);
}

const client = new Client({ name: 'test-program', version: '1.0.0' });
await client.connect(new StreamableHTTPClientTransport(new URL(process.env.SKILLRL_MCP_URL)));
const text = (r) => (r.content ?? []).map((c) => c.text ?? '').join('\n');

if (mode === 'qa-submit') {
  messages.push({
    role: 'user',
    content: `${facts}\n${task.prompt}\ntools: ${tools.map((t) => t.name).join(',')}`,
  });
  const reply = await chat(messages);
  const tool = tools[0];
  if (tool)
    await client.callTool({ name: tool.name, arguments: { path: 'notes.txt', query: 'x', url: 'x' } });
  const r = await client.callTool({
    name: 'submit',
    arguments: { answer: reply.replace(/^Action:\s*/, '').trim() },
  });
  process.stderr.write(`submitted: ${text(r).slice(0, 80)}\n`);
  await client.close();
  process.exit(0);
}

let obs = observation;
for (let i = 0; i < 100; i++) {
  const admissible = text(await client.callTool({ name: 'admissible_actions', arguments: {} }));
  messages.push({
    role: 'user',
    content: `${i === 0 ? `${facts}\n` : ''}${obs}\nAdmissible actions:\n${admissible}`,
  });
  const reply = await chat(messages);
  messages.push({ role: 'assistant', content: reply });
  if (mode === 'crash') {
    process.stderr.write('boom: the program failed on purpose\n');
    process.exit(3);
  }
  if (mode === 'hang') await new Promise(() => {});
  if (mode === 'garbage') {
    console.log('{this is not json');
    process.exit(0);
  }
  const action = /Action:\s*(.+)/.exec(reply)?.[1]?.trim() ?? reply.trim();
  const r = await client.callTool({ name: 'act', arguments: { action } });
  obs = text(r);
  if (r.structuredContent?.done === true || /\[episode (done|ended)/.test(obs)) break;
}
await client.close();
