// A test program: plays skillrl episodes through the MCP server and the proxy, as a user's agent would.
// PROGRAM_MODE picks a behaviour: loop (household: act until done), qa-answer (one call, stdout answer),
// qa-submit (a task tool, then submit), crash, hang, garbage, no-call. Started per episode it reads its
// episode from the environment; with SKILLRL_REUSE=1 (agent.program.reuse) it reads one episode per stdin
// line and prints {"episodeId", "answer"} for each.
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const mode = process.env.PROGRAM_MODE ?? 'loop';
if (process.env.PROGRAM_PIDS) appendFileSync(process.env.PROGRAM_PIDS, `${process.pid}\n`);

/** One episode; resolves with the answer to print, if any. */
async function play(episode) {
  const { task, observation, condition, tools } = JSON.parse(readFileSync(episode.taskFile, 'utf8'));
  const chat = async (messages) => {
    const res = await fetch(`${episode.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${episode.apiKey}` },
      body: JSON.stringify({ model: 'program-model', messages }),
    });
    if (!res.ok) throw new Error(`model call failed: ${res.status} ${await res.text()}`);
    const body = await res.json();
    return body.choices[0].message.content ?? '';
  };
  if (mode === 'no-call') {
    console.log('I answer without a model.');
    return undefined;
  }
  const skillNames = episode.skillDir && existsSync(episode.skillDir) ? readdirSync(episode.skillDir) : [];
  const facts = [
    `condition ${condition}`,
    `skill folder: ${skillNames.length > 0 ? skillNames.join(',') : 'none'}`,
    `upstream key visible: ${process.env.FAKE_UPSTREAM_KEY ? 'yes' : 'no'}`,
  ].join('; ');
  const messages = [{ role: 'system', content: 'You act in a text world. Reply with "Action: <action>".' }];
  if (mode === 'cheat') {
    // A program that looks for the gold answer in its task file finds none.
    await chat([{ role: 'user', content: task.prompt }]);
    return `answer:${task.answer ?? 'none'} metadata:${task.metadata ? 'yes' : 'none'}`;
  }
  if (mode === 'qa-answer') {
    messages.push({ role: 'user', content: `${facts}\n${task.prompt}` });
    const reply = await chat(messages);
    console.log('thinking done');
    return reply.replace(/^Action:\s*/, '').trim();
  }
  const client = new Client({ name: 'test-program', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(episode.mcpUrl)));
  const text = (r) => (r.content ?? []).map((c) => c.text ?? '').join('\n');
  try {
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
      return undefined;
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
    return undefined;
  } finally {
    await client.close();
  }
}

if (process.env.SKILLRL_REUSE === '1') {
  for await (const line of createInterface({ input: process.stdin })) {
    const episode = JSON.parse(line);
    const answer = await play(episode);
    console.log(
      JSON.stringify({ episodeId: episode.episodeId, ...(answer !== undefined ? { answer } : {}) }),
    );
  }
} else {
  for (const name of ['SKILLRL_TASK_FILE', 'SKILLRL_MCP_URL', 'OPENAI_BASE_URL', 'OPENAI_API_KEY']) {
    if (!process.env[name]) {
      process.stderr.write(`missing ${name}\n`);
      process.exit(2);
    }
  }
  const answer = await play({
    taskFile: process.env.SKILLRL_TASK_FILE,
    mcpUrl: process.env.SKILLRL_MCP_URL,
    baseURL: process.env.OPENAI_BASE_URL,
    apiKey: process.env.OPENAI_API_KEY,
    skillDir: process.env.SKILLRL_SKILL_DIR,
  });
  if (answer !== undefined) console.log(JSON.stringify({ answer }));
}
