#!/usr/bin/env node
// Bring your own agent, with openai-node: a plain chat-completions tool loop over the episode's MCP tools.
// skillrl runs this program once per episode (agent: { program: { command: ["node", "agent.mjs"] } }) and
// hands it the episode through environment variables; nothing here knows about skillrl beyond them:
//
//   SKILLRL_TASK_FILE   JSON: { task, observation, condition, episodeId, tools }
//   OPENAI_BASE_URL     skillrl's recording proxy in front of the real model (OpenAI-compatible)
//   OPENAI_API_KEY      a per-episode token for that proxy (not your real key)
//   SKILLRL_MCP_URL     the episode's environment as an MCP server (streamable HTTP): observe, act,
//                       admissible_actions, submit, and the task's own tools
//
// The household is won by acting in it (`act`); the loop ends when an observation says "[episode done]", the
// model stops calling tools, or MAX_TURNS is reached.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';

const NAME = 'byo-openai-node';
// Model turns per episode: a household action takes two (admissible_actions, then act), and an episode
// allows 50 actions.
const MAX_TURNS = Number(process.env.MAX_TURNS ?? 120);
// Kept short and generic on purpose: with `injectSkill` (the default) skillrl's proxy adds the episode's skill
// to this system message when the episode's condition is 1, so what the model knows of the task comes from it.
const SYSTEM = `You are an agent in a text-based household. Each turn, call admissible_actions to list the commands
you can give now, then call act with exactly one of them. Finish the task in as few actions as you can.`;

function required(name) {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(
      `${NAME}: the environment variable ${name} is not set. skillrl sets it when it runs this program as the agent (agent: { program: … } in run.yaml); see README.md.\n`,
    );
    process.exit(2);
  }
  return value;
}

const taskFile = required('SKILLRL_TASK_FILE');
const baseURL = required('OPENAI_BASE_URL');
const apiKey = required('OPENAI_API_KEY');
const mcpUrl = required('SKILLRL_MCP_URL');
// The proxy answers with the model run.yaml names upstream; this name is only what the request carries.
const model = process.env.OPENAI_MODEL || 'gpt-4o-mini';

/** The text of an MCP tool result (its text parts). */
function resultText(result) {
  const parts = Array.isArray(result.content) ? result.content : [];
  const text = parts
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('\n');
  return result.isError ? `Error: ${text}` : text;
}

async function main() {
  const episode = JSON.parse(readFileSync(taskFile, 'utf8'));
  const openai = new OpenAI({ baseURL, apiKey, maxRetries: 2, timeout: 60_000 });
  const mcp = new Client({ name: NAME, version: '0.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  try {
    const { tools } = await mcp.listTools();
    const openaiTools = tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description ?? '', parameters: t.inputSchema },
    }));
    const observation =
      episode.observation ?? resultText(await mcp.callTool({ name: 'observe', arguments: {} }));
    const messages = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: observation },
    ];

    let finalText;
    let done = false;
    for (let turn = 0; turn < MAX_TURNS && !done; turn++) {
      const completion = await openai.chat.completions.create({
        model,
        messages,
        tools: openaiTools,
        temperature: 0,
      });
      const message = completion.choices[0]?.message;
      if (!message) throw new Error('the model returned no choices');
      const calls = message.tool_calls ?? [];
      messages.push({
        role: 'assistant',
        content: message.content ?? null,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      });
      if (calls.length === 0) {
        finalText = message.content ?? '';
        break;
      }
      for (const call of calls) {
        let text;
        if (call.type !== 'function') {
          text = `Error: unsupported tool call type ${call.type}`;
        } else {
          try {
            const args = JSON.parse(call.function.arguments || '{}');
            text = resultText(await mcp.callTool({ name: call.function.name, arguments: args }));
          } catch (e) {
            // A bad call is the model's mistake: tell it, and let it try again.
            text = `Error: ${e instanceof Error ? e.message : String(e)}`;
          }
        }
        messages.push({ role: 'tool', tool_call_id: call.id, content: text });
        if (
          /\[episode done\]\s*$/.test(text) ||
          (call.function?.name === 'submit' && !text.startsWith('Error'))
        )
          done = true;
      }
    }
    // The answer line skillrl reads when the program did not submit (household is scored by its actions).
    if (finalText !== undefined && !done) process.stdout.write(`${JSON.stringify({ answer: finalText })}\n`);
  } finally {
    await mcp.close();
  }
}

main().catch((e) => {
  process.stderr.write(`${NAME}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
