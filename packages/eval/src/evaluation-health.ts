import {
  type HealthOptions,
  type RunHealthError,
  resolveHealthOptions,
  type Trajectory,
} from '@skillrl/core';
import { type EndpointInfo, ErrorBudget } from '@skillrl/rollout';
import { type EvaluationHealthDetails, EvaluationHealthError } from './evaluation-health-error.js';

const pct = (x: number) => Math.round(100 * x);

function whatHappened(d: Omit<EvaluationHealthDetails, 'endpoint' | 'target' | 'kind'>): string {
  switch (d.rule) {
    case 'share':
      return `${d.errors} of the last ${d.samples} episodes ended in an error (${pct(d.share)}% > health.maxErrorShare ${pct(d.threshold ?? 0)}%)`;
    case 'first-batch':
      return `${d.samples === 1 ? 'the only episode' : `all ${d.samples} episodes`} ended in an error (health.firstBatch: fail-if-all-error)`;
    case 'unit':
      return `${d.errors} of the evaluation's ${d.samples} episodes ended in an error (${pct(d.share)}% > health.maxErrorShare ${pct(d.threshold ?? 0)}%)`;
    case 'all-failed':
      return `every one of the evaluation's ${d.samples} episodes ended in an error, so it has no result (health allowed it; an evaluation with no episode that ended well reports no success rate)`;
  }
}

/**
 * The config's error budget (`health`) over an evaluation's episodes, judged as `skillrl run` judges a
 * run's rollouts and with the run's `ErrorBudget`: while the episodes come in (the share over the last
 * `window`, once `minSamples` are in: a dead endpoint stops the evaluation early), when they are all in
 * (`firstBatch`: the evaluation is one batch), and as one unit (more than `maxErrorShare` of all its
 * episodes in error, or every one of them whatever `health` allows). The error's message is the run's, told
 * for an evaluation: nothing was written, so there is nothing to resume.
 */
export class EvaluationHealth {
  private readonly options;
  private readonly live: ErrorBudget;
  private error: EvaluationHealthError | undefined;

  constructor(
    health: HealthOptions | undefined,
    private readonly endpoint: EndpointInfo,
    /** The config file or run directory evaluated. */
    private readonly target: string,
    /** The command that evaluates it again (`skillrl eval <target> …`), for the message. */
    private readonly again: string,
  ) {
    this.options = resolveHealthOptions(health);
    this.live = new ErrorBudget(this.options, { rollout: endpoint, editor: endpoint }, target);
  }

  /** The error once the budget is spent. */
  get tripped(): EvaluationHealthError | undefined {
    return this.error;
  }

  /** Before the first episode. */
  start(): void {
    this.live.openBatch('rollout');
  }

  /** Counts one finished episode; returns the error once the budget is spent (stop the evaluation then). */
  record(trajectory: Trajectory): EvaluationHealthError | undefined {
    const tripped = this.live.record('rollout', trajectory.error);
    if (tripped && !this.error) this.error = this.fromRun(tripped);
    return this.error;
  }

  /** After the last episode: the error when the evaluation as a whole is past the budget. */
  finish(runs: readonly Trajectory[]): EvaluationHealthError | undefined {
    const first = this.live.closeBatch('rollout');
    if (first && !this.error) this.error = this.fromRun(first);
    if (this.error || runs.length === 0 || !runs.some((t) => t.error)) return this.error;
    // The whole evaluation as one window: judged once every episode is in, every episode a sample.
    const whole = new ErrorBudget(
      {
        maxErrorShare: this.options.maxErrorShare,
        minSamples: runs.length,
        window: runs.length,
        firstBatch: 'fail-if-all-error',
      },
      { rollout: this.endpoint, editor: this.endpoint },
      this.target,
    );
    whole.openBatch('rollout');
    for (const t of runs) whole.record('rollout', t.error);
    const share = whole.tripped;
    if (share) {
      this.error = this.fromRun(share, 'unit');
      return this.error;
    }
    const all = whole.closeBatch('rollout');
    if (all) this.error = this.fromRun(all, 'all-failed');
    return this.error;
  }

  private fromRun(tripped: RunHealthError, rule?: 'unit' | 'all-failed'): EvaluationHealthError {
    const d = tripped.details;
    const counted = {
      rule: rule ?? (d.rule === 'first-batch' ? 'first-batch' : 'share'),
      ...(rule === 'unit' ? { unit: 'eval' as const } : {}),
      errors: d.errors,
      samples: d.samples,
      share: d.share,
      ...(d.threshold !== undefined && rule !== 'all-failed' ? { threshold: d.threshold } : {}),
      common: d.common,
    } satisfies Omit<EvaluationHealthDetails, 'endpoint' | 'target' | 'kind'>;
    // As the run says it: only a model call's error has an endpoint to blame.
    const code = /^([a-z-]+): /.exec(d.common.error)?.[1];
    const where =
      code === 'model'
        ? `Endpoint: ${this.endpoint.field ? `${this.endpoint.endpoint} (${this.endpoint.field})` : this.endpoint.endpoint}`
        : `Raised by the ${code ?? 'episode'}, not by a model call (the task model: ${this.endpoint.endpoint})`;
    const message =
      `the evaluation stopped: ${whatHappened(counted)}. Most common (${d.common.count}×): ${d.common.error.replace(/\.+$/, '')}. ` +
      `${where}. No success rate is reported (an episode that ended in an error is not a result) and nothing was written; ` +
      `fix the cause, then evaluate again with \`${this.again}\`.`;
    return new EvaluationHealthError(message, {
      kind: 'rollout',
      ...counted,
      endpoint: this.endpoint.endpoint,
      ...(this.endpoint.field ? { field: this.endpoint.field } : {}),
      target: this.target,
    });
  }
}
