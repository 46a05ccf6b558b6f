import type { ErrorBudget } from '@skillrl/rollout';

/** The session's side of the budget: its counts, its abort signal, and its stop once the budget tripped. */
export interface BudgetGuard {
  budget: ErrorBudget;
  signal: AbortSignal;
  /** Aborts what is in flight and throws the budget's error, when it tripped; otherwise returns. */
  throwIfTripped(): void;
}

/** The ports of Skill-R1's generation step the editor's budget wraps (the step's own type narrows them). */
export interface EditorPorts {
  propose: (...args: never[]) => Promise<unknown>;
  onCandidates?: (...args: never[]) => unknown;
  // biome-ignore lint/suspicious/noExplicitAny: the step's attempt record, of which only `error` is read.
  onAttempt?: (taskId: string, attempt: any) => unknown;
}

/**
 * Runs one editor call (an evolve editor's `propose`) under the error budget: a failure is counted and
 * rethrown as it was (the generation step retries or falls back), unless the budget is spent, in which case
 * the run stops with the budget's error.
 */
async function editorCall<T>(call: () => Promise<T>, guard: BudgetGuard): Promise<T> {
  guard.throwIfTripped();
  guard.budget.openBatch('editor');
  let result: T;
  try {
    result = await call();
  } catch (error) {
    if (guard.signal.aborted) {
      guard.throwIfTripped();
      throw error;
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    guard.budget.record('editor', { code: 'editor', message });
    guard.throwIfTripped();
    throw error;
  }
  guard.budget.record('editor', undefined);
  guard.throwIfTripped();
  return result;
}

/**
 * An evolve generation's ports with the editor under the error budget: each `propose` is counted
 * (`editorCall`); the first `onCandidates` (a task's proposals about to be stored) closes the editor's first
 * batch before anything of it is stored — when every call of it failed, the run stops there, so a resume asks
 * the editor again instead of reusing a fallback; and failed calls of that first batch (`onAttempt` records
 * with an `error`) are held back until it passed, so a run stopped because every call failed does not count
 * those calls as spent.
 */
export function withEditorBudget<P extends EditorPorts>(ports: P, guard: BudgetGuard): P {
  const { propose, onCandidates, onAttempt } = ports;
  const held: [string, { error?: string }][] = [];
  const flush = async () => {
    while (held.length > 0) {
      const [taskId, attempt] = held.shift() as [string, { error?: string }];
      await onAttempt?.(taskId, attempt);
    }
  };
  return {
    ...ports,
    propose: (...args: Parameters<P['propose']>) => editorCall(() => propose(...args), guard),
    ...(onCandidates
      ? {
          onCandidates: async (...args: Parameters<NonNullable<P['onCandidates']>>) => {
            guard.budget.closeBatch('editor');
            guard.throwIfTripped();
            await flush();
            return onCandidates(...args);
          },
        }
      : {}),
    ...(onAttempt
      ? {
          onAttempt: async (taskId: string, attempt: { error?: string }) => {
            if (attempt.error !== undefined && guard.budget.batchOpen('editor')) {
              held.push([taskId, attempt]);
              return;
            }
            await flush();
            return onAttempt(taskId, attempt);
          },
        }
      : {}),
  };
}
