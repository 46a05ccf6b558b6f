import {
  type ChatChoice,
  type ChatMessage,
  type ChatModel,
  type ChatResponse,
  createRng,
  formatSkill,
  InvalidArgumentError,
  REQUEST_SEED_RANGE,
  type RejectedProposal,
  type SkillCandidate,
  type SkillGenerationContext,
  type SkillGenerator,
} from '@skillrl/core';
import {
  checkOpenAIChatModelOptions,
  createOpenAIChatModel,
  NoChoiceError,
  type OpenAIChatModelOptions,
  UnknownOptionError,
} from '@skillrl/rollout';
import { type RenderHistoryOptions, renderHistory } from '../history/render-history.js';
import { type SummarizeHistoryOptions, summarizeHistory } from '../history/summarize-history.js';
import {
  type EditorPlaceholder,
  type EditorTemplate,
  renderEditorTemplate,
  resolveEditorTemplate,
} from './editor-template.js';
import { extractSkillText } from './extract-skill-text.js';
import { normalizeSkillName, repairSkill, type SkillDefaults } from './repair-skill.js';

/** A reply that gave no usable skill, and why. */
export interface RejectedReply {
  /** 0 for the first request, then one per repair round. */
  round: number;
  reason: string;
  /** The reply, cut to 300 characters. */
  excerpt: string;
}

/**
 * How the n candidates are sampled: `n` (default) asks the model once for `n` completions (the chat model
 * falls back to one request per completion when the server ignores `n`); `separate` sends `n` requests of one
 * completion, each with its own derived seed.
 */
export type EditorSampling = 'n' | 'separate';

export interface LlmSkillEditorOptions {
  /** A chat model, or the options of an OpenAI-compatible one (`createOpenAIChatModel`). */
  model: ChatModel | OpenAIChatModelOptions;
  /** The prompt; a partial template is completed from `DEFAULT_EDITOR_TEMPLATE`. */
  template?: Partial<EditorTemplate>;
  /** Sampling temperature. Default 1.0: candidates of one generation should differ. */
  temperature?: number;
  topP?: number;
  /** Default 2048. */
  maxTokens?: number;
  /** Ask for per-token log-probs (kept on the candidates for training export). Default false. */
  logprobs?: boolean;
  /** Default `n`. */
  sampling?: EditorSampling;
  /**
   * Rounds of asking again, for the missing candidates only, when replies are rejected. Default 2. When
   * candidates are still missing after them, `propose` returns the valid ones it has (fewer than n, possibly
   * none); the rejections are in each candidate's `info.rejected` and go to `onReject`.
   */
  maxRepairs?: number;
  /** Seed for request seeds when the context has none. Default 0. */
  seed?: number;
  /** How much of the history the prompt carries. */
  history?: SummarizeHistoryOptions & RenderHistoryOptions;
  /**
   * Called for every rejected reply, e.g. to log it into the run directory. (The loop also learns of each
   * one through `context.onReject`.)
   */
  onReject?: (rejected: RejectedReply, context: SkillGenerationContext) => void;
  /**
   * How many `propose` calls this editor takes at once (`SkillGenerator.maxConcurrency`): the loop keeps to
   * it when it proposes for a generation's tasks concurrently. Default: no limit of its own (the run's
   * concurrency, and the chat model's `concurrency` for requests, still apply).
   */
  maxConcurrency?: number;
  /** Default `llm-editor:<model>`. */
  name?: string;
}

function isChatModel(model: unknown): model is ChatModel {
  return typeof (model as ChatModel | undefined)?.complete === 'function';
}

function checkNumber(name: string, value: number | undefined, ok: (v: number) => boolean, want: string) {
  if (value !== undefined && !(typeof value === 'number' && ok(value))) {
    throw new InvalidArgumentError(name, `expected ${want}, got ${value}`);
  }
}

/**
 * The choices of a reply that carry text. A reply without any (a `ChatModel` that answered `choices: []`,
 * or only placeholders such as an older `finishReason: 'no-choice'`) is the endpoint's failure, not a bad
 * skill: it throws `NoChoiceError`, so the call fails and the run counts it, instead of being read as a reply
 * with "no SKILL.md" in it. (The OpenAI chat model already retries and throws such replies itself.)
 */
function usableChoices(response: ChatResponse, modelName: string): ChatChoice[] {
  const choices = Array.isArray(response?.choices) ? response.choices : undefined;
  const usable = (choices ?? []).filter(
    (c) => c && typeof c.text === 'string' && c.finishReason !== 'no-choice',
  );
  if (usable.length > 0) return usable;
  const what =
    choices === undefined
      ? 'no choices field'
      : choices.length === 0
        ? 'choices: [] (no choice)'
        : `${choices.length} choice${choices.length === 1 ? '' : 's'} without text`;
  throw new NoChoiceError(`the chat model ${modelName} answered with ${what}`);
}

function excerpt(text: string): string {
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/** Rejections a retry prompt lists (the newest), and how much of each rejected reply it quotes. */
const FEEDBACK_ITEMS = 5;
const FEEDBACK_QUOTE = 160;

/**
 * The `{{rejections}}` section: what was wrong with the replies rejected so far in this generation (the
 * loop's earlier attempts, then this call's earlier rounds), so the model can fix it. Empty when none.
 */
export function renderRejections(rejections: readonly RejectedProposal[]): string {
  if (rejections.length === 0) return '';
  const shown = rejections.slice(-FEEDBACK_ITEMS);
  const lines = shown.map((r) => {
    const quote = r.excerpt?.replace(/\s+/g, ' ').trim();
    const cut = quote && quote.length > FEEDBACK_QUOTE ? `${quote.slice(0, FEEDBACK_QUOTE - 1)}…` : quote;
    return `- ${r.reason}${cut ? ` (the reply began: "${cut}")` : ''}`;
  });
  const more = rejections.length - shown.length;
  return [
    '## What was wrong with your earlier replies',
    '',
    `${rejections.length === 1 ? 'An earlier reply' : `${rejections.length} earlier replies`} for this generation could not be used:`,
    ...lines,
    ...(more > 0 ? [`- (and ${more} more)`] : []),
    '',
    'Fix this: reply with exactly one SKILL.md inside a ```markdown fenced block, frontmatter first.',
    '',
    '',
  ].join('\n');
}

/** What a repair falls back on: the current skill, else a skill named after the task family. */
function defaultsFor(context: SkillGenerationContext): SkillDefaults {
  const current = context.currentSkill;
  if (current) {
    return {
      name: current.name,
      description: current.description,
      ...(current.families ? { families: current.families } : {}),
    };
  }
  const family = context.task.family;
  return {
    name: normalizeSkillName(family) || 'task-skill',
    description: `How to solve ${family} tasks.`,
    families: [family],
  };
}

/**
 * The inference-mode Skill-R1 editor: a frozen LLM that reads the task, the current skill and the history
 * H_{g−1} (earlier skills with their rewards, where episodes failed and succeeded) and writes n candidate
 * SKILL.md revisions. Every candidate is extracted from its reply, repaired where that is safe or rejected with
 * a reason, and is valid under `validateSkill`; token ids and log-probs are kept when the endpoint sends them.
 * Request seeds derive from the context's seed and the generation, so a rerun against a deterministic server
 * (or the request cache) proposes the same candidates.
 */
export function createLlmSkillEditor(options: LlmSkillEditorOptions): SkillGenerator {
  if (!options || typeof options !== 'object' || !options.model) {
    throw new InvalidArgumentError(
      'options.model',
      'expected a ChatModel or OpenAI-compatible options such as { model: "Qwen/Qwen3-4B", baseURL: "http://127.0.0.1:8000/v1" }',
    );
  }
  const template = resolveEditorTemplate(options.template);
  checkNumber('options.temperature', options.temperature, (v) => v >= 0, 'a number >= 0');
  checkNumber('options.topP', options.topP, (v) => v > 0 && v <= 1, 'a number in (0, 1]');
  checkNumber('options.maxTokens', options.maxTokens, (v) => Number.isInteger(v) && v > 0, 'an integer > 0');
  checkNumber(
    'options.maxRepairs',
    options.maxRepairs,
    (v) => Number.isInteger(v) && v >= 0,
    'an integer >= 0',
  );
  checkNumber('options.seed', options.seed, Number.isSafeInteger, 'a safe integer');
  checkNumber(
    'options.maxConcurrency',
    options.maxConcurrency,
    (v) => Number.isInteger(v) && v >= 1,
    'an integer >= 1',
  );
  const sampling = options.sampling ?? 'n';
  if (sampling !== 'n' && sampling !== 'separate') {
    throw new InvalidArgumentError(
      'options.sampling',
      `expected 'n' or 'separate', got ${JSON.stringify(sampling)}`,
    );
  }
  if (!isChatModel(options.model)) {
    // Checked here so the path names the editor's option (`options.model.temprature`).
    const [unknown] = checkOpenAIChatModelOptions(options.model, 'options.model');
    if (unknown) throw new UnknownOptionError(unknown.path, unknown.message, unknown.suggestion);
  }
  const model = isChatModel(options.model) ? options.model : createOpenAIChatModel(options.model);
  const maxRepairs = options.maxRepairs ?? 2;
  const temperature = options.temperature ?? 1;
  const maxTokens = options.maxTokens ?? 2048;
  const logprobs = options.logprobs ?? false;
  const { lastGenerations, maxExamples, maxObservationChars, maxSkills, includeSkillBodies } =
    options.history ?? {};
  const summarizeOptions: SummarizeHistoryOptions = {
    ...(lastGenerations === undefined ? {} : { lastGenerations }),
    ...(maxExamples === undefined ? {} : { maxExamples }),
    ...(maxObservationChars === undefined ? {} : { maxObservationChars }),
  };
  const renderOptions: RenderHistoryOptions = {
    ...(maxSkills === undefined ? {} : { maxSkills }),
    ...(includeSkillBodies === undefined ? {} : { includeSkillBodies }),
  };

  const asksForRejections = /\{\{\s*rejections\s*\}\}/.test(`${template.system}\n${template.user}`);
  const buildMessages = (
    context: SkillGenerationContext,
    rejections: readonly RejectedProposal[],
  ): ChatMessage[] => {
    const feedback = renderRejections(rejections);
    const values: Record<EditorPlaceholder, string> = {
      'task.id': context.task.id,
      'task.family': context.task.family,
      'task.prompt': context.task.prompt,
      generation: String(context.generation),
      currentSkill: context.currentSkill
        ? `\`\`\`markdown\n${formatSkill(context.currentSkill)}\`\`\``
        : 'None yet: write the first skill for this task.',
      history: renderHistory(summarizeHistory(context.history, summarizeOptions), renderOptions),
      rejections: feedback,
    };
    const messages: ChatMessage[] = [];
    const system = renderEditorTemplate(template.system, values);
    if (system.trim().length > 0) messages.push({ role: 'system', content: system });
    let user = renderEditorTemplate(template.user, values);
    // A template without the placeholder still tells the model what was wrong: a retry must say it.
    if (feedback && !asksForRejections) user = `${user.trimEnd()}\n\n${feedback.trimEnd()}\n`;
    messages.push({ role: 'user', content: user });
    return messages;
  };

  const sample = async (
    messages: ChatMessage[],
    count: number,
    seeds: { round: number; rng: ReturnType<typeof createRng> },
    signal: AbortSignal | undefined,
  ): Promise<{ text: string; seed: number; choice: ChatResponse['choices'][number] }[]> => {
    const request = {
      messages,
      temperature,
      maxTokens,
      ...(options.topP === undefined ? {} : { topP: options.topP }),
      ...(logprobs ? { logprobs } : {}),
      ...(signal ? { signal } : {}),
    };
    if (sampling === 'n') {
      const seed = seeds.rng.seedFor(`round/${seeds.round}`) % REQUEST_SEED_RANGE;
      const response = await model.complete({ ...request, n: count, seed });
      return usableChoices(response, model.model)
        .slice(0, count)
        .map((choice) => ({ text: choice.text, seed, choice }));
    }
    return Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const seed = seeds.rng.seedFor(`round/${seeds.round}/sample/${i}`) % REQUEST_SEED_RANGE;
        const response = await model.complete({ ...request, n: 1, seed });
        const [choice] = usableChoices(response, model.model);
        return { text: (choice as ChatChoice).text, seed, choice: choice as ChatChoice };
      }),
    );
  };

  return {
    name: options.name ?? `llm-editor:${model.model}`,
    ...(options.maxConcurrency !== undefined ? { maxConcurrency: options.maxConcurrency } : {}),
    async propose(context, n) {
      if (!Number.isInteger(n) || n < 1) {
        throw new InvalidArgumentError('n', `expected an integer >= 1 candidates, got ${n}`);
      }
      if (!context?.task || typeof context.task.prompt !== 'string') {
        throw new InvalidArgumentError('context.task', 'expected the task the skill is written for');
      }
      if (!Array.isArray(context.history)) {
        throw new InvalidArgumentError(
          'context.history',
          'expected an array of GenerationRecord ([] at first)',
        );
      }
      const earlier = Array.isArray(context.rejections) ? context.rejections : [];
      const defaults = defaultsFor(context);
      const rng = createRng(context.seed ?? options.seed ?? 0).fork(`llm-editor/g${context.generation}`);
      const accepted: SkillCandidate[] = [];
      const rejected: RejectedReply[] = [];
      for (let round = 0; round <= maxRepairs && accepted.length < n; round++) {
        // Each round says what was wrong so far: the loop's earlier attempts, then this call's rounds.
        const messages = buildMessages(context, [
          ...earlier,
          ...rejected.map((r) => ({ kind: 'reply' as const, reason: r.reason, excerpt: r.excerpt })),
        ]);
        const replies = await sample(messages, n - accepted.length, { round, rng }, context.signal);
        for (const reply of replies) {
          const found = extractSkillText(reply.text);
          const result = found
            ? repairSkill(found, defaults)
            : {
                ok: false as const,
                reason:
                  reply.text.trim() === ''
                    ? `the reply is empty (no text${reply.choice.finishReason ? `, finish_reason ${reply.choice.finishReason}` : ''}; expected a SKILL.md in a \`\`\`markdown block)`
                    : 'no SKILL.md in the reply (expected a ```markdown block or `---` frontmatter)',
              };
          if (!result.ok) {
            const entry = { round, reason: result.reason, excerpt: excerpt(reply.text) };
            rejected.push(entry);
            options.onReject?.(entry, context);
            // The reply's own sampled tokens go with it, so a trained editor can credit it (negatively) in
            // the generation's update, from the run directory on a resumed run too.
            const { tokenIds, logProbs } = reply.choice;
            context.onReject?.({
              kind: 'reply',
              reason: entry.reason,
              excerpt: entry.excerpt,
              ...(tokenIds && logProbs && tokenIds.length > 0
                ? { reply: { tokenIds: [...tokenIds], logProbs: [...logProbs], prompt: messages } }
                : {}),
            });
            continue;
          }
          const candidate: SkillCandidate = {
            skill: result.skill,
            text: reply.text,
            info: {
              raw: reply.text,
              skillText: formatSkill(result.skill),
              extractedFrom: found?.source,
              repairs: result.repairs,
              familiesFrom: result.familiesFrom,
              round,
              seed: reply.seed,
              model: model.model,
              prompt: messages,
              ...(reply.choice.finishReason ? { finishReason: reply.choice.finishReason } : {}),
            },
          };
          if (result.repairs.length > 0) candidate.repaired = result.repairs.join('; ');
          if (reply.choice.tokenIds) candidate.tokenIds = reply.choice.tokenIds;
          if (reply.choice.logProbs) {
            candidate.logProbs = reply.choice.logProbs;
            candidate.logProb = reply.choice.logProbs.reduce((a, b) => a + b, 0);
          }
          accepted.push(candidate);
        }
      }
      const out = accepted.slice(0, n);
      for (const candidate of out) (candidate.info as Record<string, unknown>).rejected = rejected;
      return out;
    },
  };
}
