import { InvalidArgumentError, type Task, type Trajectory, type Verdict, type Verifier } from '@skillrl/core';
import { answerOf, type LlmJudgeOptions, llmJudge, quote, tokenF1Score } from '@skillrl/verifiers';
import { buildWebWalkerJudgePrompt, WEBWALKER_JUDGE_TEMPLATE } from './judge-prompt.js';
import { parseWebWalkerGrade } from './parse-grade.js';

/** Any judge model: gets the full grading prompt, returns the model's reply text. */
export type JudgeFunction = (prompt: string) => Promise<string>;

/**
 * A judge model behind an OpenAI-compatible endpoint, called through `@skillrl/verifiers`' `llmJudge` (its
 * retries, timeouts, secret redaction). The prompt and parser are still WebWalkerQA's.
 */
export interface WebWalkerJudgeModel
  extends Pick<
    LlmJudgeOptions,
    'model' | 'baseURL' | 'apiKey' | 'client' | 'timeoutMs' | 'maxRetries' | 'onError'
  > {
  /**
   * Default 1024: the chain-of-thought explanation comes before the GRADE line, and LangChain sets no limit,
   * so a short cap would cut the grade off.
   */
  maxTokens?: number;
}

export interface WebWalkerVerifierOptions {
  /** Default `webwalker`. */
  name?: string;
  /**
   * The judge: a model config (run through `llmJudge`) or your own function. Without one, the verifier falls back
   * to token F1, which is not the official metric.
   */
  judge?: JudgeFunction | WebWalkerJudgeModel;
  /** Token-F1 fallback: `passed` when F1 ≥ this. Default 0.5. */
  f1Threshold?: number;
  extract?: (trajectory: Trajectory) => string;
}

const F1_NOTE =
  "token F1 against the gold answer: NOT WebWalkerQA's official metric (an LLM judge with LangChain's cot_qa prompt); configure a judge to compare with published numbers";

/** The official template in `llmJudge`'s placeholder syntax: question → {{prompt}}, gold → {{reference}}. */
const LLM_JUDGE_TEMPLATE = WEBWALKER_JUDGE_TEMPLATE.replace('{query}', '{{prompt}}')
  .replace('{context}', '{{reference}}')
  .replace('{result}', '{{answer}}');

function questionOf(task: Task): string {
  return typeof task.metadata?.question === 'string' ? task.metadata.question : task.prompt;
}

function gradedVerdict(reply: string): Verdict {
  const grade = parseWebWalkerGrade(reply);
  return {
    score: grade.score ?? 0,
    passed: grade.score === 1,
    reason:
      grade.value === null
        ? `the judge gave no grade (reply ${quote(grade.reasoning)}); scored 0`
        : `judge: ${grade.value}`,
    details: {
      metric: 'webwalker-cot-qa-judge',
      official: true,
      grade: grade.value,
      judgeReply: grade.reasoning,
    },
  };
}

function modelJudge(name: string, config: WebWalkerJudgeModel, extract: (t: Trajectory) => string): Verifier {
  const options: LlmJudgeOptions = {
    name,
    model: config.model,
    rubric: '',
    template: LLM_JUDGE_TEMPLATE,
    parse: (text) => parseWebWalkerGrade(text).score ?? undefined,
    format: 'GRADE: CORRECT or INCORRECT',
    temperature: 0,
    maxTokens: config.maxTokens ?? 1024,
    extract,
  };
  for (const key of ['baseURL', 'apiKey', 'client', 'timeoutMs', 'maxRetries', 'onError'] as const) {
    if (config[key] !== undefined) Object.assign(options, { [key]: config[key] });
  }
  const inner = llmJudge(options);
  return {
    name,
    async verify(task, trajectory) {
      // The official judge sees the bare question, not our prompt with its start-URL line.
      const verdict = await inner.verify({ ...task, prompt: questionOf(task) }, trajectory);
      const samples = verdict.details?.samples as Array<{ text: string }> | undefined;
      if (verdict.details?.judgeError || !samples?.[0]) return verdict;
      return gradedVerdict(samples[0].text);
    },
  };
}

/**
 * WebWalkerQA judging. With a `judge`: the official prompt (`buildWebWalkerJudgePrompt`) and grade parser
 * (`parseWebWalkerGrade`); CORRECT scores 1, INCORRECT 0. A reply without a grade scores 0 with
 * `details.grade = null` (the official script drops such rows from its averages; a report may do the same).
 * Without a judge: SQuAD token F1 (`@skillrl/verifiers`' `tokenF1Score`), labelled in `details` as not the
 * official metric.
 */
export function createWebWalkerVerifier(options: WebWalkerVerifierOptions = {}): Verifier {
  const name = options.name ?? 'webwalker';
  const threshold = options.f1Threshold ?? 0.5;
  if (!(threshold >= 0 && threshold <= 1)) {
    throw new InvalidArgumentError(
      'options.f1Threshold',
      `expected a number in [0, 1], got ${String(threshold)}`,
    );
  }
  const extract = options.extract ?? answerOf;
  const judge = options.judge;
  const model = judge && typeof judge !== 'function' ? modelJudge(name, judge, extract) : undefined;
  return {
    name,
    async verify(task, trajectory) {
      if (task.answer === undefined || task.answer === null) {
        return {
          score: 0,
          passed: false,
          reason: `task ${task.id} is unlabeled: it cannot be scored`,
          details: { unlabeled: true },
        };
      }
      const reference = typeof task.answer === 'string' ? task.answer : JSON.stringify(task.answer);
      const prediction = extract(trajectory);
      if (model) return model.verify(task, trajectory);
      if (typeof judge === 'function') {
        return gradedVerdict(
          await judge(buildWebWalkerJudgePrompt({ question: questionOf(task), reference, prediction })),
        );
      }
      const f1 = tokenF1Score(prediction, reference);
      return {
        score: f1.f1,
        passed: f1.f1 >= threshold,
        reason: `token F1 ${f1.f1.toFixed(3)} against ${quote(reference)} (not the official metric)`,
        details: { metric: 'token-f1', official: false, note: F1_NOTE, ...f1 },
      };
    },
  };
}
