import {
  type Agent,
  type AgentAction,
  type AgentContext,
  type ChatTurn,
  type ChatTurnRecord,
  InvalidArgumentError,
  type Skill,
  type Usage,
} from '@skillrl/core';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions';
import {
  checkPositive,
  createOpenAIConnection,
  type OpenAIConnectionOptions,
  type OpenAIConnectionStats,
} from '../connection/create-openai-connection.js';
import { spentToolBudget } from '../episode/tool-budget.js';
import { checkOpenAIAgentOptions, throwOnUnknownOptions } from '../options/check-option-names.js';
import { NoChoiceError } from '../resilience/no-choice-error.js';
import { ACT_TOOL, buildTools, decodeToolCall } from './action-tools.js';
import { buildChatTranscript } from './build-chat-transcript.js';
import { type ChatTurnMemory, createChatTurnMemory, promptTokenIdsOf, replyOf } from './chat-turn-memory.js';
import { extractTokens } from './extract-tokens.js';
import { type ActionParser, type ActionParserOptions, createActionParser } from './parse-action.js';
import {
  type AgentMode,
  DEFAULT_SYSTEM_PROMPT,
  renderSystemPrompt,
  type SystemPromptTemplate,
  systemPromptInput,
} from './system-prompt.js';

/** The connection (endpoints, key, retries, limits, cache, prices) plus how the agent prompts and decodes. */
export interface OpenAIAgentOptions extends OpenAIConnectionOptions {
  temperature?: number;
  topP?: number;
  /** Sent as `max_tokens`, which vLLM, SGLang, Ollama, llama.cpp and OpenAI's chat models all accept. */
  maxTokens?: number;
  /** `text` (default): the action is parsed out of the reply. `tools`: the model calls function tools. */
  mode?: AgentMode;
  /** Text-mode parsing: options for the default parser, or your own parser. */
  actionParser?: ActionParserOptions | ActionParser;
  systemPrompt?: SystemPromptTemplate;
  /** Template for the skill block (`{{name}}`, `{{description}}`, `{{body}}`). */
  skillTemplate?: string;
  /** Keep only the last N steps of history in the prompt. Default: all. */
  historyWindow?: number;
  /** Ask for per-token log-probs (and token ids, where the server has them). Default false. */
  logprobs?: boolean;
  topLogprobs?: number;
  /** Tools mode: `tool_choice`. Default `auto` (older servers reject `required`). */
  toolChoice?: 'auto' | 'required';
  /**
   * Send the per-decision seed (mod 2^31) as the request's `seed` (vLLM, OpenAI, llama.cpp honour it).
   * Default true.
   */
  sendSeed?: boolean;
  /** Extra body fields, e.g. `{ return_token_ids: true }` for vLLM. Part of the cache key. */
  extraBody?: Record<string, unknown>;
  /**
   * Ask for the token ids of the prompt and of the reply: sends vLLM's `return_token_ids: true` (vLLM ≥
   * 0.10.2 answers with `prompt_token_ids` and `choices[i].token_ids`). The reply's ids go to
   * `step.tokenIds`, the prompt's to `step.info.chat.promptTokenIds`. Default false.
   */
  returnTokenIds?: boolean;
  /**
   * Record each decision's request and reply at `step.info.chat` (core's `ChatTurnRecord`: the messages and
   * tools exactly as sent, the assistant message as returned, the prompt's token ids when the server sent
   * them), delta-coded against the previous step so a long episode stays small; `skillrl export` builds
   * trainer rows from it. Default true.
   */
  recordChat?: boolean;
}

export type OpenAIAgentStats = OpenAIConnectionStats;

export interface OpenAIAgent extends Agent {
  readonly name: string;
  readonly model: string;
  stats(): OpenAIAgentStats;
  /** Closes idle keep-alive sockets of the default transport. The agent still works afterwards. */
  close(): void;
}

/**
 * An agent backed by any OpenAI-compatible chat endpoint (OpenAI, vLLM, SGLang, Ollama, llama.cpp).
 * Retries, timeouts, concurrency and rate limits are owned here rather than by the `openai` client, so they
 * are seeded, observable and testable; a call that fails past the budget throws `ModelCallError`, which
 * `runEpisode` records as the trajectory's `error`.
 */
export function createOpenAIAgent(options: OpenAIAgentOptions): OpenAIAgent {
  // A misspelt option (`temprature`) would otherwise change nothing and say nothing.
  throwOnUnknownOptions(checkOpenAIAgentOptions(options));
  const connection = createOpenAIConnection(options);
  checkPositive('options.maxTokens', options.maxTokens, true);
  const mode = options.mode ?? 'text';
  if (mode !== 'text' && mode !== 'tools') {
    throw new InvalidArgumentError('options.mode', `expected 'text' or 'tools', got ${JSON.stringify(mode)}`);
  }
  const parse =
    typeof options.actionParser === 'function'
      ? options.actionParser
      : createActionParser(options.actionParser);

  const template = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
  // A string template reads only the family, the skill and the mode: its rendering is kept per family (and
  // per skill, checked against the skill's content, which may be edited in place) instead of being redone
  // for every step of every episode. A function template is called each time, as it may read anything.
  const plainPrompts = new Map<string, string>();
  const skillPrompts = new WeakMap<
    Skill,
    { name: string; description: string; body: string; byFamily: Map<string, string> }
  >();
  const systemPromptOf = (context: AgentContext): string => {
    const skill = context.condition === 1 ? context.skill : undefined;
    if (typeof template === 'string') {
      let byFamily = plainPrompts;
      if (skill) {
        let known = skillPrompts.get(skill);
        if (
          !known ||
          known.name !== skill.name ||
          known.description !== skill.description ||
          known.body !== skill.body
        ) {
          known = { name: skill.name, description: skill.description, body: skill.body, byFamily: new Map() };
          skillPrompts.set(skill, known);
        }
        byFamily = known.byFamily;
      }
      const cached = byFamily.get(context.task.family);
      if (cached !== undefined) return cached;
      const rendered = renderSystemPrompt(
        template,
        { task: context.task, condition: context.condition, mode, ...(skill ? { skill } : {}) },
        options.skillTemplate,
      );
      byFamily.set(context.task.family, rendered);
      return rendered;
    }
    return renderSystemPrompt(template, systemPromptInput(context, mode), options.skillTemplate);
  };

  const buildBody = (context: AgentContext): ChatCompletionCreateParamsNonStreaming => {
    const system = systemPromptOf(context);
    const messages = buildChatTranscript(context, {
      system,
      mode,
      ...(options.historyWindow === undefined ? {} : { historyWindow: options.historyWindow }),
    });
    const budget = spentToolBudget(context);
    const body: ChatCompletionCreateParamsNonStreaming & Record<string, unknown> = {
      ...options.extraBody,
      model: options.model,
      messages,
    };
    if (options.temperature !== undefined) body.temperature = options.temperature;
    if (options.topP !== undefined) body.top_p = options.topP;
    if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
    if (options.logprobs) {
      body.logprobs = true;
      if (options.topLogprobs !== undefined) body.top_logprobs = options.topLogprobs;
    }
    if (options.returnTokenIds) body.return_token_ids = true;
    // Folded into 31 bits: llama.cpp and some vLLM versions reject or wrap seeds beyond a 32-bit integer.
    if ((options.sendSeed ?? true) && context.seed !== undefined) body.seed = context.seed % 2_147_483_648;
    // With the tool budget spent, no tools at all (not tool_choice "none": servers differ in honouring it,
    // and an offered tool invites a call); the history's tool calls and results are still sent.
    if (mode === 'tools' && !budget) {
      body.tools = buildTools(context.admissibleActions, context.tools);
      body.tool_choice = options.toolChoice ?? 'auto';
    }
    return body;
  };

  const memory: ChatTurnMemory | undefined =
    (options.recordChat ?? true) ? createChatTurnMemory() : undefined;

  /** The turn as sent and received, recorded against the episode's previous turn. */
  const recordTurn = (
    body: ChatCompletionCreateParamsNonStreaming,
    response: ChatCompletion,
    context: AgentContext,
  ): ChatTurnRecord | undefined => {
    const choice = response.choices?.[0];
    if (!memory || !choice) return undefined;
    const promptTokenIds = promptTokenIdsOf(response);
    const turn: ChatTurn = {
      messages: body.messages as ChatTurn['messages'],
      ...(body.tools ? { tools: body.tools as unknown as NonNullable<ChatTurn['tools']> } : {}),
      reply: replyOf(choice.message),
      ...(promptTokenIds ? { promptTokenIds } : {}),
    };
    return memory.record(context.history, turn);
  };

  const decode = (
    response: ChatCompletion,
    latencyMs: number,
    usage: Usage,
    context: AgentContext,
  ): AgentAction => {
    const choice = response.choices?.[0];
    const info: Record<string, unknown> = { latencyMs };
    // The connection retries a reply without a choice and throws past the budget; never an action.
    if (!choice) throw new NoChoiceError('the endpoint answered 200 with choices: [] (no choice)');
    const budget = spentToolBudget(context);
    const raw = choice.message?.content ?? '';
    info.raw = raw;
    if (choice.finish_reason) info.finishReason = choice.finish_reason;
    const tokens = extractTokens(choice as Parameters<typeof extractTokens>[0]);
    const calls = (choice.message?.tool_calls ?? []).filter((c) => c.type === 'function');
    let result: Pick<AgentAction, 'action' | 'invalid'>;
    if (budget) info.toolBudgetSpent = true;
    const refused = budget ? calls.filter((c) => c.function.name !== ACT_TOOL) : [];
    if (refused.length > 0 && budget) {
      // No tools were offered: a task tool's call is not run and is never the answer, whatever text came
      // with it. (A call of `act` is still the action: it says what to do in the environment.)
      const names = refused.map((c) => c.function.name);
      info.refusedToolCalls = names;
      info.error = `a tool call (${names.join(', ')}) after the tool budget was spent (maxCalls ${budget.maxCalls}): the episode ends without an answer`;
      result = { action: '', invalid: true };
    } else if (mode === 'tools' && calls.length > 0) {
      const first = calls[0] as (typeof calls)[number];
      const decoded = decodeToolCall(
        { id: first.id, name: first.function.name, arguments: first.function.arguments },
        context.tools,
      );
      info.toolCall = decoded.toolCall;
      if (decoded.toolArgs) info.toolArgs = decoded.toolArgs;
      if (decoded.error) info.error = decoded.error;
      if (calls.length > 1) info.ignoredToolCalls = calls.length - 1;
      result = { action: decoded.action, invalid: decoded.invalid };
    } else {
      if (mode === 'tools' && !budget) info.noToolCall = true;
      // An empty string is still text the model chose to send (content "", not null): the policy's output,
      // scored as an invalid action like any text without an action, not retried as the endpoint's failure.
      const parsed = parse(raw);
      if (parsed.invalid) info.error = raw ? 'no action found in the reply' : 'empty reply';
      result = { action: parsed.action, invalid: parsed.invalid };
    }
    const action: AgentAction = { ...result, raw, usage, info, ...tokens };
    if (!action.invalid) delete action.invalid;
    return action;
  };

  return {
    name: `openai:${options.model}`,
    model: options.model,
    async act(context) {
      const body = buildBody(context);
      // The decision seed is part of the key even when it is not sent: without it the n identical prompts of
      // a group would share one cache entry and the group would collapse to a single rollout.
      const keyed =
        body.seed === undefined && context.seed !== undefined
          ? { ...body, decisionSeed: context.seed }
          : body;
      const sent = await connection.send(body, {
        cacheKey: keyed,
        jitterKey: `${context.task.id}/${context.seed ?? ''}/${context.stepIndex}`,
        // What the agent can use of a choice depends on what it offered. Tools mode offers tools (the last
        // turn of a tool episode withdraws them, and a call made there anyway is the policy's own failure to
        // answer, scored as such below): a tool call is a reply, even to an unknown tool (a malformed call,
        // an invalid action). Text mode offers none, so a choice that is only tool calls (content null) has
        // nothing to parse: like a choice with no text at all, it is the endpoint's failure (a retried
        // NoChoiceError, then a model error of the rollout), never an empty action scored as the policy's.
        use: mode === 'tools' ? 'text-or-tool-call' : 'text',
        ...(context.signal ? { signal: context.signal } : {}),
      });
      const action = decode(sent.response, sent.latencyMs, sent.usage, context);
      const chat = recordTurn(body, sent.response, context);
      // `decode` made this info object for this action alone: extended in place.
      if (chat) (action.info as Record<string, unknown>).chat = chat;
      return action;
    },
    stats: () => connection.stats(),
    close: () => connection.close(),
  };
}
