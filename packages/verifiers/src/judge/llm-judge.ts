import {
  InvalidArgumentError,
  redactSecrets,
  registerSecret,
  type Task,
  type Trajectory,
  type Verdict,
} from '@skillrl/core';
import { type AsyncVerifier, answerOf, checkThreshold, makeVerdict, quote } from '../shared/index.js';
import { DEFAULT_JUDGE_TEMPLATE, GRADE_FORMAT, SCORE_FORMAT } from './default-template.js';
import type { JudgeChatClient, JudgeChatMessage } from './judge-chat-client.js';
import { JudgeError } from './judge-error.js';
import { DEFAULT_GRADES, gradeParser, type JudgementParser, scoreParser } from './parse-judgement.js';
import { checkTemplate, renderTemplate } from './render-template.js';

export interface LlmJudgeOptions {
  name?: string;
  /** The judge model id. */
  model: string;
  /** Any OpenAI-compatible endpoint, e.g. `http://127.0.0.1:8000/v1`. Default: OpenAI's. */
  baseURL?: string;
  /** Default: `OPENAI_API_KEY`, else a placeholder (local servers ignore it). Never appears in verdicts or errors. */
  apiKey?: string;
  /**
   * A client you built yourself (`new OpenAI({...})` with proxies or headers, or any object with the same
   * `chat.completions.create`). `baseURL`, `apiKey`, `timeoutMs`, `maxRetries` are then unused.
   */
  client?: JudgeChatClient;
  /** What a good answer is, in the judge's words. Fills `{{rubric}}`. */
  rubric: string;
  /**
   * The judge prompt with `{{rubric}}`, `{{prompt}}` (the task), `{{answer}}`, `{{reference}}` (the task's
   * answer or "(none)") and `{{format}}` (the line the parser expects). Default `DEFAULT_JUDGE_TEMPLATE`.
   */
  template?: string;
  /** Optional system message. */
  system?: string;
  /** `grade` (default: `GRADE: A/B/C` through `grades`), `score` (`SCORE: 0.8` or `8/10`), or your own parser. */
  parse?: 'grade' | 'score' | JudgementParser;
  /** Letter → score for `parse: 'grade'`. Default `{ A: 1, B: 0.5, C: 0 }`. */
  grades?: Record<string, number>;
  /** The line `{{format}}` becomes; required with a custom parser if the template uses `{{format}}`. */
  format?: string;
  /** Ask the judge k times (in parallel) and aggregate. Default 1. */
  repeat?: number;
  /** How k parsed scores become one: `mean` (default), `median`, or `majority` (most frequent; ties → lowest). */
  aggregate?: 'mean' | 'median' | 'majority';
  /** Default 0 for a single sample and 0.7 when `repeat > 1` (identical samples would make repeat pointless). */
  temperature?: number;
  /** Default 512. */
  maxTokens?: number;
  /** Per request. Default 60 000 ms. */
  timeoutMs?: number;
  /** The client's retries on 429, 5xx, timeouts and connection errors. Default 2. */
  maxRetries?: number;
  /**
   * When the judge cannot be reached past the retry budget: `throw` (default) a `JudgeError`, since a 0
   * would blame the model for the judge's outage; or `verdict`: score 0, `details.judgeError` set.
   */
  onError?: 'throw' | 'verdict';
  extract?: (trajectory: Trajectory) => string;
  /** Default 0.5. */
  threshold?: number;
}

interface Sample {
  score: number | null;
  text: string;
}

function aggregateScores(scores: number[], how: 'mean' | 'median' | 'majority'): number {
  if (how === 'mean') return scores.reduce((a, b) => a + b, 0) / scores.length;
  const sorted = [...scores].sort((a, b) => a - b);
  if (how === 'median') {
    const mid = sorted.length >> 1;
    return sorted.length % 2
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  }
  let best = sorted[0] as number;
  let bestCount = 0;
  for (const s of sorted) {
    const count = sorted.filter((x) => x === s).length;
    if (count > bestCount) {
      best = s;
      bestCount = count;
    }
  }
  return best;
}

/** Share of samples that gave the most common score: 1 when all k agree, 1/k when all differ. */
function agreementOf(scores: number[]): number {
  const counts = new Map<number, number>();
  for (const s of scores) counts.set(s, (counts.get(s) ?? 0) + 1);
  return Math.max(...counts.values()) / scores.length;
}

/** `openai`'s client class, as much of it as the judge uses. */
type OpenAIClass = new (options: {
  apiKey: string;
  baseURL: string | undefined;
  timeout: number;
  maxRetries: number;
}) => JudgeChatClient;

/** `openai`'s client class, or an error that says how to get it. */
async function loadOpenAI(name: string): Promise<OpenAIClass> {
  try {
    return ((await import('openai')) as unknown as { default: OpenAIClass }).default;
  } catch (error) {
    if (
      (error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND' &&
      (error as { code?: string }).code !== 'MODULE_NOT_FOUND'
    )
      throw error;
    throw new InvalidArgumentError(
      name,
      'the LLM judge calls its model through the `openai` package, an optional peer of @skillrl/verifiers that is not installed: npm install openai (or pass options.client)',
    );
  }
}

function describeFailure(error: unknown): { message: string; status?: number } {
  // openai's APIError, read by shape: the class is loaded lazily (and a user's client may come from another
  // copy of the package).
  const api = error as { status?: unknown; message?: unknown; name?: unknown };
  if (
    error instanceof Error &&
    'status' in api &&
    /Error$/.test(String(api.name)) &&
    'headers' in (error as object)
  ) {
    const status = typeof api.status === 'number' ? api.status : undefined;
    const base = { message: `${status ?? 'no response'} ${(error as Error).message}` };
    return status === undefined ? base : { ...base, status };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

/**
 * An LLM grades the answer against a rubric, over any OpenAI-compatible endpoint. With `repeat: k` the judge
 * is asked k times; `details` reports every sample, the agreement and how many replies could not be parsed.
 * If no reply can be parsed the verdict is 0 with a reason quoting the judge, never an exception.
 */
export function llmJudge(options: LlmJudgeOptions): AsyncVerifier {
  const name = options.name ?? 'llmJudge';
  if (!options.model) throw new InvalidArgumentError(`${name} options.model`, 'a judge model id is required');
  if (typeof options.rubric !== 'string')
    throw new InvalidArgumentError(`${name} options.rubric`, 'expected a string');
  const threshold = checkThreshold(name, options.threshold, 0.5);
  const repeat = options.repeat ?? 1;
  if (!(Number.isInteger(repeat) && repeat >= 1)) {
    throw new InvalidArgumentError(
      `${name} options.repeat`,
      `expected an integer >= 1, got ${String(repeat)}`,
    );
  }
  const aggregate = options.aggregate ?? 'mean';
  const template = options.template ?? DEFAULT_JUDGE_TEMPLATE;
  checkTemplate(name, template);
  const parseMode = options.parse ?? 'grade';
  const parser: JudgementParser =
    parseMode === 'grade'
      ? gradeParser(options.grades ?? DEFAULT_GRADES)
      : parseMode === 'score'
        ? scoreParser()
        : parseMode;
  const format =
    options.format ??
    (parseMode === 'score' ? SCORE_FORMAT : parseMode === 'grade' ? GRADE_FORMAT : undefined);
  if (format === undefined && /\{\{\s*format\s*\}\}/.test(template)) {
    throw new InvalidArgumentError(
      `${name} options.format`,
      'a custom parser needs a format line for {{format}}',
    );
  }
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY ?? 'sk-no-key-needed';
  registerSecret(apiKey);
  // openai is an optional peer used by the judge alone: loaded on the first judgement, so the other
  // verifiers install and run without it.
  let client: Promise<JudgeChatClient> | undefined;
  const clientOf = (): Promise<JudgeChatClient> => {
    client ??= options.client
      ? Promise.resolve(options.client)
      : loadOpenAI(name).then(
          (OpenAIClient) =>
            new OpenAIClient({
              apiKey,
              baseURL: options.baseURL,
              timeout: options.timeoutMs ?? 60_000,
              maxRetries: options.maxRetries ?? 2,
            }),
        );
    return client;
  };
  const temperature = options.temperature ?? (repeat > 1 ? 0.7 : 0);
  const onError = options.onError ?? 'throw';

  const ask = async (content: string): Promise<Sample> => {
    const messages: JudgeChatMessage[] = [];
    if (options.system) messages.push({ role: 'system', content: options.system });
    messages.push({ role: 'user', content });
    const completion = await (await clientOf()).chat.completions.create({
      model: options.model,
      messages,
      temperature,
      max_tokens: options.maxTokens ?? 512,
    });
    const text = completion.choices?.[0]?.message?.content ?? '';
    const score = parser(text);
    return { score: typeof score === 'number' && score >= 0 && score <= 1 ? score : null, text };
  };

  return {
    name,
    async verify(task: Task, trajectory: Trajectory): Promise<Verdict> {
      const reference =
        task.answer === undefined || task.answer === null
          ? '(none)'
          : typeof task.answer === 'string'
            ? task.answer
            : JSON.stringify(task.answer);
      const prompt = renderTemplate(template, {
        rubric: options.rubric,
        prompt: task.prompt,
        answer: (options.extract ?? answerOf)(trajectory),
        reference,
        format: format ?? '',
      });
      let samples: Sample[];
      try {
        samples = await Promise.all(Array.from({ length: repeat }, () => ask(prompt)));
      } catch (error) {
        // A missing `openai` is a setup error, never the judge's outage to score as 0.
        if (InvalidArgumentError.isInstance(error)) throw error;
        const failure = describeFailure(error);
        const message = `judge request to model "${options.model}" failed: ${redactSecrets(failure.message)}`;
        if (onError === 'throw') {
          throw new JudgeError(
            message,
            failure.status === undefined ? { cause: error } : { status: failure.status, cause: error },
          );
        }
        return makeVerdict(0, threshold, message, {
          judgeError: { message, status: failure.status ?? null },
        });
      }
      const parsed = samples.map((s) => s.score).filter((s): s is number => s !== null);
      const details: Record<string, unknown> = {
        samples: samples.map((s) => ({ score: s.score, text: redactSecrets(s.text.slice(0, 2000)) })),
        k: repeat,
        parsed: parsed.length,
        unparseable: repeat - parsed.length,
        aggregate,
      };
      if (parsed.length === 0) {
        return makeVerdict(
          0,
          threshold,
          `judge output unparseable in ${repeat === 1 ? 'its reply' : `all ${repeat} replies`}: expected ${format ? quote(format, 40) : 'a score'}, got ${quote(samples[0]?.text ?? '')}`,
          { ...details, agreement: null },
        );
      }
      const score = aggregateScores(parsed, aggregate);
      const agreement = agreementOf(parsed);
      details.agreement = agreement;
      const skipped = repeat - parsed.length;
      const reason =
        repeat === 1
          ? `judge score ${score}`
          : `judge score ${Number(score.toFixed(4))} (${aggregate} of ${parsed.length} sample(s): ${parsed.join(', ')}; agreement ${Number(agreement.toFixed(3))}${skipped ? `; ${skipped} unparseable reply(ies) ignored` : ''})`;
      return makeVerdict(score, threshold, reason, details);
    },
  };
}
