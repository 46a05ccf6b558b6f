import { type JsonValue, MissingFieldError, type Task } from '@skillrl/core';

/**
 * The acceptable reference answers of a task as strings. An array `answer` lists alternatives (SQuAD keeps
 * several gold answers and scores against the best one); numbers and booleans are written as JSON; objects are
 * JSON text. A task without `answer` cannot be checked against a reference, so that is an error, not a 0.
 */
export function referencesOf(
  component: string,
  task: Task,
  reference?: (task: Task) => JsonValue | undefined,
): string[] {
  const value = reference ? reference(task) : task.answer;
  if (value === undefined || value === null) {
    throw new MissingFieldError(
      component,
      'task.answer',
      `task "${task.id}" has no reference answer; label it or pass options.reference`,
    );
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0) {
    throw new MissingFieldError(component, 'task.answer', `task "${task.id}" has an empty list of answers`);
  }
  return list.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
}
