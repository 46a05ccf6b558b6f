/** The judge prompt used unless `template` is given. `{{format}}` becomes the parser's answer-format line. */
export const DEFAULT_JUDGE_TEMPLATE = `You are grading a model's answer to a task.

[Task]
{{prompt}}

[Reference answer]
{{reference}}

[Answer to grade]
{{answer}}

[Rubric]
{{rubric}}

Reason briefly, then end your reply with one line of the form:
{{format}}`;

export const GRADE_FORMAT =
  'GRADE: A, GRADE: B or GRADE: C (A = fully correct, B = partially correct, C = incorrect)';
export const SCORE_FORMAT = 'SCORE: <a number from 0 to 1> (1 = fully correct, 0 = incorrect)';
