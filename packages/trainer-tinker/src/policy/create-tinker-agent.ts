import { type Agent, type AgentAction, type AgentContext, InvalidArgumentError } from '@skillrl/core';
import {
  type ActionParser,
  type ActionParserOptions,
  buildChatTranscript,
  createActionParser,
  createChatTurnMemory,
  DEFAULT_SYSTEM_PROMPT,
  renderSystemPrompt,
  type SystemPromptTemplate,
  systemPromptInput,
} from '@skillrl/rollout';
import { TinkerPolicy, type TinkerPolicyOptions, type TinkerPolicyState } from './tinker-policy.js';

const AGENT = Symbol.for('skillrl.trainer-tinker.agent');

export interface TinkerAgentOptions extends TinkerPolicyOptions {
  /** Completion tokens per turn: a cost knob. Default 256. */
  maxTokens?: number;
  /**
   * Default 1 (the sampler's own distribution: what on-policy training assumes). A temperature other than 1,
   * `topP` or `topK` are for an agent nothing trains (evaluation): a Tinker trainer refuses them.
   */
  temperature?: number;
  topP?: number;
  topK?: number;
  /** As `@skillrl/rollout`'s openai agent: `{{skill}}`, `{{format}}`, `{{family}}`, or a function. */
  systemPrompt?: SystemPromptTemplate;
  skillTemplate?: string;
  /** Keep only the last N steps of history in the prompt. Default: all. */
  historyWindow?: number;
  actionParser?: ActionParserOptions | ActionParser;
  name?: string;
}

/** The Tinker agent: an `Agent` with the policy it samples from, carried through checkpoints by `toJSON`/`restore`. */
export interface TinkerAgent extends Agent {
  readonly policy: TinkerPolicy;
  /** What it samples with: a trainer refuses an agent that does not sample from the policy's own distribution. */
  readonly sampling: { temperature: number; topP?: number; topK?: number };
  toJSON(): TinkerPolicyState;
  restore(state: unknown): void;
  close(): void;
}

export function isTinkerAgent(value: unknown): value is TinkerAgent {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[AGENT] === true;
}

/**
 * An agent that samples from the policy's current Tinker sampler checkpoint (or, untrained, from `modelPath`
 * or the base model). Each turn's prompt is the chat transcript of `@skillrl/rollout`'s openai agent (text
 * mode: system prompt with the skill under condition 1, task, history, the latest observation), rendered
 * through the model's own chat template and tokenizer; the reply is decoded and its action parsed as the
 * openai agent parses one. Per turn it records the prompt's token ids (`step.info.chat.promptTokenIds`, with
 * the messages and reply), the completion's token ids and log-probs (`step.tokenIds`, `step.logProbs`) and
 * the sampler checkpoint it used (`step.info.tinker.sampler`): what the Tinker trainer builds its datums from.
 */
export function createTinkerAgent(options: TinkerAgentOptions): TinkerAgent {
  const policy = new TinkerPolicy(options);
  const template = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
  const parse: ActionParser =
    typeof options.actionParser === 'function'
      ? options.actionParser
      : createActionParser(options.actionParser ?? {});
  for (const key of ['maxTokens', 'historyWindow'] as const) {
    const v = options[key];
    if (v !== undefined && !(Number.isInteger(v) && v >= 1))
      throw new InvalidArgumentError(key, `expected an integer >= 1, got ${v}`);
  }
  if (options.temperature !== undefined && !(options.temperature >= 0)) {
    throw new InvalidArgumentError('temperature', `expected a number >= 0, got ${options.temperature}`);
  }
  const chats = createChatTurnMemory();
  const sampling = {
    temperature: options.temperature ?? 1,
    ...(options.topP !== undefined ? { topP: options.topP } : {}),
    ...(options.topK !== undefined ? { topK: options.topK } : {}),
  };
  const agent: TinkerAgent = {
    name: options.name ?? `tinker:${options.baseModel}`,
    policy,
    sampling,
    async act(context: AgentContext): Promise<AgentAction> {
      // The openai agent's transcript in text mode, from the same renderer: what the two record (and export
      // writes) cannot drift apart.
      const system = renderSystemPrompt(template, systemPromptInput(context, 'text'), options.skillTemplate);
      const messages = buildChatTranscript(context, {
        system,
        mode: 'text',
        ...(options.historyWindow === undefined ? {} : { historyWindow: options.historyWindow }),
      });
      const prompt = policy.tokenizer.promptTokens(
        messages.map((m) => ({ role: m.role, content: m.content ?? '' })),
      );
      const started = Date.now();
      const response = await policy.sample(prompt, {
        maxTokens: options.maxTokens ?? 256,
        ...sampling,
        ...(context.seed !== undefined ? { seed: context.seed } : {}),
        ...(context.signal ? { signal: context.signal } : {}),
      });
      const sequence = response.sequences[0];
      if (!sequence) {
        return { action: '', invalid: true, raw: '', info: { error: 'the sampler returned no sequence' } };
      }
      const tokens = sequence.tokens;
      const logProbs = sequence.logprobs ?? [];
      if (logProbs.length !== tokens.length) {
        throw new InvalidArgumentError(
          'sampler response',
          `expected one log-prob per sampled token, got ${logProbs.length} for ${tokens.length}`,
        );
      }
      const raw = policy.tokenizer.decode(tokens);
      const parsed = parse(raw);
      const chat = chats.record(context.history, {
        messages,
        reply: { role: 'assistant', content: raw },
        promptTokenIds: prompt,
      });
      const action: AgentAction = {
        action: parsed.action,
        raw,
        tokenIds: tokens,
        logProbs,
        logProb: logProbs.reduce((a, b) => a + b, 0),
        usage: { inputTokens: prompt.length, outputTokens: tokens.length, requests: 1 },
        info: {
          latencyMs: Date.now() - started,
          chat,
          tinker: { sampler: response.sampler, stopReason: sequence.stop_reason },
          ...(parsed.invalid ? { error: raw ? 'no action found in the reply' : 'empty reply' } : {}),
        },
      };
      if (parsed.invalid) action.invalid = true;
      return action;
    },
    toJSON: () => policy.toJSON(),
    restore: (state) => policy.restore(state),
    close: () => policy.close(),
  };
  Object.defineProperty(agent, AGENT, { value: true });
  return agent;
}
