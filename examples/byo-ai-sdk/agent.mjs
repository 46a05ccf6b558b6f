#!/usr/bin/env node
// Bring your own agent, with the Vercel AI SDK: `streamText` in a multi-step tool loop over the episode's MCP
// tools (`@ai-sdk/mcp`), against skillrl's OpenAI-compatible proxy (`@ai-sdk/openai-compatible`). The program
// loads the episode's skill itself from SKILLRL_SKILL_DIR into its instructions; run.yaml sets
// `injectSkill: none` so the proxy does not add it a second time.
//
// skillrl runs this program once per episode and hands it the episode through environment variables:
//
//   SKILLRL_TASK_FILE   JSON: { task, observation, condition, episodeId, tools }
//   OPENAI_BASE_URL     skillrl's recording proxy in front of the real model (OpenAI-compatible)
//   OPENAI_API_KEY      a per-episode token for that proxy (not your real key)
//   SKILLRL_MCP_URL     the episode's environment as an MCP server (streamable HTTP): observe, act,
//                       admissible_actions, submit, and the task's own tools
//   SKILLRL_SKILL_DIR   only when the episode runs with a skill (condition 1): <name>/SKILL.md files
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMCPClient } from '@ai-sdk/mcp';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { isStepCount, streamText } from 'ai';

const NAME = 'byo-ai-sdk';
// Model steps per episode: a household action takes two (admissible_actions, then act); 50 actions at most.
const MAX_STEPS = Number(process.env.MAX_STEPS ?? 120);
// Kept generic: what the model knows about solving the task comes from the skill below, when there is one.
const INSTRUCTIONS = `You are an agent in a text-based household. Each turn, call admissible_actions to list the
commands you can give now, then call act with exactly one of them. Finish the task in as few actions as you can.`;

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

/** SKILL.md files under the skill folder (Agent Skills format: YAML frontmatter, then the markdown body). */
export function loadSkills(dir) {
  const skills = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (!entry.isDirectory()) continue;
    let text;
    try {
      text = readFileSync(join(dir, entry.name, 'SKILL.md'), 'utf8');
    } catch {
      continue;
    }
    const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
    const front = m?.[1] ?? '';
    const field = (key) =>
      new RegExp(`^${key}:\\s*(.*)$`, 'm')
        .exec(front)?.[1]
        ?.trim()
        .replace(/^(['"])(.*)\1$/, '$2');
    skills.push({
      name: field('name') ?? entry.name,
      description: field('description') ?? '',
      body: (m?.[2] ?? text).trim(),
    });
  }
  return skills;
}

const taskFile = required('SKILLRL_TASK_FILE');
const baseURL = required('OPENAI_BASE_URL');
const apiKey = required('OPENAI_API_KEY');
const mcpUrl = required('SKILLRL_MCP_URL');
const skillDir = process.env.SKILLRL_SKILL_DIR;
// The proxy answers with the model run.yaml names upstream; this name is only what the request carries.
const model = process.env.OPENAI_MODEL || 'gpt-4o-mini';

/** Whether an MCP tool result (the output the AI SDK keeps) says the episode is over. */
const episodeDone = (output) => JSON.stringify(output ?? '').includes('[episode done]');

async function main() {
  const episode = JSON.parse(readFileSync(taskFile, 'utf8'));
  const skills = skillDir ? loadSkills(skillDir) : [];
  const instructions = [
    INSTRUCTIONS,
    ...skills.map((s) => `## Skill: ${s.name}\n${s.description}\n\n${s.body}`),
  ].join('\n\n');

  const provider = createOpenAICompatible({ name: 'skillrl', baseURL, apiKey, includeUsage: true });
  const mcp = await createMCPClient({ transport: { type: 'http', url: mcpUrl } });
  try {
    const tools = await mcp.tools();
    const prompt = episode.observation ?? 'Call observe to see the task.';
    const result = streamText({
      model: provider.chatModel(model),
      instructions,
      prompt,
      tools,
      temperature: 0,
      maxRetries: 2,
      // Stop at the step limit, or as soon as an observation says the episode is over (no wasted model call).
      stopWhen: [
        isStepCount(MAX_STEPS),
        ({ steps }) => (steps.at(-1)?.toolResults ?? []).some((r) => episodeDone(r.output)),
      ],
    });
    // Reading the stream drives the loop; a model or tool error arrives as an `error` part.
    for await (const part of result.fullStream) {
      if (part.type === 'error')
        throw part.error instanceof Error ? part.error : new Error(String(part.error));
    }
    const steps = await result.steps;
    const submitted = steps.some((s) => s.toolCalls.some((c) => c.toolName === 'submit'));
    const text = await result.text;
    // The answer line skillrl reads when the program did not submit (household is scored by its actions).
    if (!submitted && text) process.stdout.write(`${JSON.stringify({ answer: text })}\n`);
  } finally {
    await mcp.close();
  }
}

main().catch((e) => {
  process.stderr.write(`${NAME}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
