#!/usr/bin/env node
// Bring your own agent, with LangChain.js: `createAgent` (LangChain 1.x's ReAct agent on LangGraph) with a
// `ChatOpenAI` model pointed at skillrl's proxy, and the episode's MCP tools loaded by `@langchain/mcp-adapters`
// over streamable HTTP. It answers GAIA-style questions with the task's tools (read_file, web_search,
// fetch_page) and hands in its answer with the MCP tool `submit`.
//
// skillrl runs this program once per episode and hands it the episode through environment variables:
//
//   SKILLRL_TASK_FILE   JSON: { task, observation, condition, episodeId, tools }
//   OPENAI_BASE_URL     skillrl's recording proxy in front of the real model (OpenAI-compatible)
//   OPENAI_API_KEY      a per-episode token for that proxy (not your real key)
//   SKILLRL_MCP_URL     the episode's environment as an MCP server (streamable HTTP): observe, act, submit,
//                       and the task's own tools
import { readFileSync } from 'node:fs';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';

const NAME = 'byo-langchain';
// LangGraph counts the model node and the tools node each as one step: 2 per tool call.
const RECURSION_LIMIT = Number(process.env.RECURSION_LIMIT ?? 40);
// With `injectSkill` (the default) skillrl's proxy appends the episode's skill to this system message when the
// episode's condition is 1.
const SYSTEM = `You answer questions. Use the tools to read the attached file or search the web and open pages
when the question needs them. When you know the answer, call submit with the answer alone (a number or as few
words as possible).`;

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
const modelName = process.env.OPENAI_MODEL || 'gpt-4o-mini';

/** The text of a LangChain message's content (a string, or content blocks). */
function messageText(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((b) => (typeof b === 'string' ? b : (b?.text ?? ''))).join('');
  return '';
}

async function main() {
  const episode = JSON.parse(readFileSync(taskFile, 'utf8'));
  const mcp = new MultiServerMCPClient({
    // The tools keep their MCP names (submit, read_file, …), which is what the skill text calls them.
    prefixToolNameWithServerName: false,
    mcpServers: { env: { url: mcpUrl, transport: 'http', automaticSSEFallback: false } },
  });
  try {
    const tools = await mcp.getTools();
    const model = new ChatOpenAI({
      model: modelName,
      apiKey,
      configuration: { baseURL },
      temperature: 0,
      // Not streamed: with `streaming: true`, ChatOpenAI's invoke() estimates token counts with tiktoken, which
      // downloads its encoding from tiktoken.pages.dev and hangs where that host is unreachable (offline CI).
      // skillrl's proxy passes streamed completions through as well (see byo-ai-sdk).
      streaming: false,
      useResponsesApi: false,
      maxRetries: 2,
    });
    const agent = createAgent({ model, tools, systemPrompt: SYSTEM });
    const question = episode.observation ?? episode.task?.prompt;
    if (!question) throw new Error(`${taskFile} has no observation or task.prompt`);
    const state = await agent.invoke(
      { messages: [{ role: 'user', content: question }] },
      { recursionLimit: RECURSION_LIMIT },
    );
    const messages = state.messages ?? [];
    const submitted = messages.some((m) => (m.tool_calls ?? []).some((c) => c.name === 'submit'));
    const last = messages.at(-1);
    // The answer line skillrl reads when the model answered in text instead of calling submit.
    if (!submitted && last)
      process.stdout.write(`${JSON.stringify({ answer: messageText(last.content) })}\n`);
  } finally {
    await mcp.close();
  }
}

main().catch((e) => {
  process.stderr.write(`${NAME}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
