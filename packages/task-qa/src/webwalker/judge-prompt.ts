/**
 * WebWalkerQA's official evaluation (`src/evaluate.py` in Alibaba-NLP/WebWalker) calls LangChain's
 * `load_evaluator("cot_qa")` with `input` = the question, `reference` = the gold answer and `prediction` = the
 * agent's answer. That evaluator is `CotQAEvalChain`, whose prompt is `COT_PROMPT`: the template below with
 * `{query}` = question, `{context}` = gold answer, `{result}` = prediction, and the explanation line filled in
 * as "step by step reasoning here". Kept as data, character for character (including the space after
 * "Begin!"), because judge outputs shift with prompt wording.
 */
export const WEBWALKER_JUDGE_TEMPLATE = `You are a teacher grading a quiz.
You are given a question, the context the question is about, and the student's answer. You are asked to score the student's answer as either CORRECT or INCORRECT, based on the context.
Write out in a step by step manner your reasoning to be sure that your conclusion is correct. Avoid simply stating the correct answer at the outset.

Example Format:
QUESTION: question here
CONTEXT: context the question is about here
STUDENT ANSWER: student's answer here
EXPLANATION: step by step reasoning here
GRADE: CORRECT or INCORRECT here

Grade the student answers based ONLY on their factual accuracy. Ignore differences in punctuation and phrasing between the student answer and true answer. It is OK if the student answer contains more information than the true answer, as long as it does not contain any conflicting statements. Begin! 

QUESTION: {query}
CONTEXT: {context}
STUDENT ANSWER: {result}
EXPLANATION:`;

export interface WebWalkerJudgeInput {
  question: string;
  /** The gold answer (LangChain's `reference`, shown as CONTEXT). */
  reference: string;
  /** The agent's answer. */
  prediction: string;
}

/**
 * The judge prompt for one answer. Placeholders are filled in one pass, as Python's `str.format` does, so a
 * `{context}` inside the question is left as written.
 */
export function buildWebWalkerJudgePrompt(input: WebWalkerJudgeInput): string {
  const values: Record<string, string> = {
    query: input.question,
    context: input.reference,
    result: input.prediction,
  };
  return WEBWALKER_JUDGE_TEMPLATE.replace(
    /\{(query|context|result)\}/g,
    (_, key: string) => values[key] as string,
  );
}
