import { type HealthKind, type ResolvedHealthOptions, RunHealthError, redactSecrets } from '@skillrl/core';

/** Where a kind of call goes, for error messages: the endpoint (credentials redacted) and the config field. */
export interface EndpointInfo {
  /** `http://host:8000/v1`, several joined by `, `, or a component's name when it has no URL option. */
  endpoint: string;
  /** The config path that sets it (`agent.options.baseURL`), when there is one. */
  field?: string;
}

/** How a failed call is counted: `<code>: <message>`, cut so one huge message cannot fill the report. */
export interface CallError {
  code: string;
  message: string;
}

const MAX_KEY = 400;

const keyOf = (error: CallError): string => {
  let message = error.message;
  // A proxy's error page (an HTML 502) reads better as its text than as markup.
  if (/<(?:!doctype|html)[\s>]/i.test(message)) message = message.replace(/<[^>]*>/g, ' ');
  const text = redactSecrets(`${error.code}: ${message}`).replace(/\s+/g, ' ').trim();
  return text.length > MAX_KEY ? `${text.slice(0, MAX_KEY - 1)}…` : text;
};

interface KindState {
  /** The last `window` outcomes: an error's key, or null for a call that succeeded. */
  ring: (string | null)[];
  next: number;
  filled: number;
  errorsInRing: number;
  first: 'pending' | 'open' | 'judged';
  firstTotal: number;
  firstErrors: Map<string, number>;
  firstErrorCount: number;
}

const LABEL: Record<HealthKind, { plural: string; singular: string }> = {
  rollout: { plural: 'rollouts', singular: 'rollout' },
  editor: { plural: 'editor calls', singular: 'editor call' },
};

function mostCommon(counts: Map<string, number>): { error: string; count: number } {
  let best = { error: 'unknown error', count: 0 };
  for (const [error, count] of counts) if (count > best.count) best = { error, count };
  return best;
}

/**
 * Counts the outcomes of a run's calls in this process, per kind, and trips once the config's `health`
 * budget is spent: more than `maxErrorShare` of the last `window` outcomes in error (after `minSamples`), or
 * (with `firstBatch: fail-if-all-error`) a first batch in which every call failed. Tripping is final: the
 * error is kept and returned again, so every caller stops on the same message.
 */
export class ErrorBudget {
  private readonly state = new Map<HealthKind, KindState>();
  private trippedError: RunHealthError | undefined;

  constructor(
    // The no-signal guard's `voidUnits` is the session's SignalGuard's, not the error budget's.
    private readonly options: Omit<ResolvedHealthOptions, 'voidUnits'>,
    private readonly endpoints: Record<HealthKind, EndpointInfo>,
    private readonly runDir: string,
  ) {}

  get tripped(): RunHealthError | undefined {
    return this.trippedError;
  }

  private kind(kind: HealthKind): KindState {
    let s = this.state.get(kind);
    if (!s) {
      s = {
        ring: new Array(this.options.window).fill(null),
        next: 0,
        filled: 0,
        errorsInRing: 0,
        first: 'pending',
        firstTotal: 0,
        firstErrors: new Map(),
        firstErrorCount: 0,
      };
      this.state.set(kind, s);
    }
    return s;
  }

  /** Marks the start of a batch of calls; the first batch of a kind that records anything is judged whole. */
  openBatch(kind: HealthKind): void {
    const s = this.kind(kind);
    if (s.first === 'pending') s.first = 'open';
  }

  /** Whether the first batch of a kind is under way (opened, not judged yet). */
  batchOpen(kind: HealthKind): boolean {
    return this.kind(kind).first === 'open';
  }

  /** Ends a batch; returns the error when it was the first batch and every call in it failed. */
  closeBatch(kind: HealthKind): RunHealthError | undefined {
    const s = this.kind(kind);
    if (s.first !== 'open') return this.trippedError;
    // A batch that ran nothing (everything reused from disk) does not count as the first one.
    if (s.firstTotal === 0) {
      s.first = 'pending';
      return this.trippedError;
    }
    s.first = 'judged';
    if (
      this.options.firstBatch === 'fail-if-all-error' &&
      s.firstErrorCount === s.firstTotal &&
      !this.trippedError
    ) {
      const common = mostCommon(s.firstErrors);
      const what = LABEL[kind];
      this.trip(
        kind,
        {
          rule: 'first-batch',
          errors: s.firstErrorCount,
          samples: s.firstTotal,
          share: 1,
          common,
        },
        `${s.firstTotal === 1 ? `the only ${what.singular}` : `all ${s.firstTotal} ${what.plural}`} of the first batch ended in an error (health.firstBatch: fail-if-all-error)`,
      );
    }
    s.firstErrors.clear();
    return this.trippedError;
  }

  /** Counts one call's outcome; returns the error once the budget is spent. */
  record(kind: HealthKind, error: CallError | undefined): RunHealthError | undefined {
    const s = this.kind(kind);
    const key = error ? keyOf(error) : null;
    if (s.first === 'open') {
      s.firstTotal++;
      if (key !== null) {
        s.firstErrorCount++;
        s.firstErrors.set(key, (s.firstErrors.get(key) ?? 0) + 1);
      }
    }
    const window = this.options.window;
    const old = s.ring[s.next];
    if (s.filled === window && old !== null) s.errorsInRing--;
    s.ring[s.next] = key;
    if (key !== null) s.errorsInRing++;
    s.next = (s.next + 1) % window;
    if (s.filled < window) s.filled++;
    if (this.trippedError) return this.trippedError;
    const minSamples = Math.min(this.options.minSamples, window);
    const share = s.errorsInRing / s.filled;
    if (s.filled >= minSamples && share > this.options.maxErrorShare) {
      const counts = new Map<string, number>();
      for (let i = 0; i < s.filled; i++) {
        const k = s.ring[i];
        if (k !== null && k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      const what = LABEL[kind];
      this.trip(
        kind,
        {
          rule: 'share',
          errors: s.errorsInRing,
          samples: s.filled,
          share,
          threshold: this.options.maxErrorShare,
          common: mostCommon(counts),
        },
        `${s.errorsInRing} of the last ${s.filled} ${what.plural} ended in an error (${Math.round(100 * share)}% > health.maxErrorShare ${Math.round(100 * this.options.maxErrorShare)}%)`,
      );
    }
    return this.trippedError;
  }

  /**
   * Judges one unit's rollouts as a whole, before the unit is scored, checkpointed or carried: more than
   * `maxErrorShare` of them in error trips the budget (rule `unit`). The rolling window alone cannot do
   * this: it spans units, so a unit made mostly of errors would be kept when earlier units were clean.
   * `maxErrorShare: 1` turns this rule off too.
   */
  judgeUnit(
    kind: HealthKind,
    unit: string,
    errors: readonly (CallError | undefined)[],
  ): RunHealthError | undefined {
    if (this.trippedError) return this.trippedError;
    const counts = new Map<string, number>();
    let failed = 0;
    for (const error of errors) {
      if (!error) continue;
      failed++;
      const key = keyOf(error);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const share = errors.length ? failed / errors.length : 0;
    if (failed === 0 || share <= this.options.maxErrorShare) return undefined;
    const what = LABEL[kind];
    this.trip(
      kind,
      {
        rule: 'unit',
        unit,
        errors: failed,
        samples: errors.length,
        share,
        threshold: this.options.maxErrorShare,
        common: mostCommon(counts),
      },
      `${failed} of the ${errors.length} ${what.plural} of unit ${unit} ended in an error (${Math.round(100 * share)}% > health.maxErrorShare ${Math.round(100 * this.options.maxErrorShare)}%); the unit was not scored, checkpointed or carried, and a resume runs it again`,
    );
    return this.trippedError;
  }

  /**
   * Judges the whole run before it is recorded as completed: a run in which every rollout ended in an error
   * has no result, whatever `health` allowed on the way (`maxErrorShare: 1` may keep a run going; it never
   * makes one "completed").
   */
  judgeRun(
    kind: HealthKind,
    total: number,
    errors: number,
    common: CallError | undefined,
  ): RunHealthError | undefined {
    if (this.trippedError) return this.trippedError;
    if (total === 0 || errors < total) return undefined;
    const what = LABEL[kind];
    this.trip(
      kind,
      {
        rule: 'all-failed',
        errors,
        samples: total,
        share: 1,
        common: { error: common ? keyOf(common) : 'unknown error', count: errors },
      },
      `every one of the run's ${total} ${what.plural} ended in an error, so it has no result (health kept it going; a run with no successful ${what.singular} is never "completed")`,
    );
    return this.trippedError;
  }

  private trip(
    kind: HealthKind,
    counted: {
      rule: 'share' | 'first-batch' | 'unit' | 'all-failed';
      unit?: string;
      errors: number;
      samples: number;
      share: number;
      threshold?: number;
      common: { error: string; count: number };
    },
    what: string,
  ): void {
    const target = this.endpoints[kind];
    // A rollout's error code says where it came from; only model calls have an endpoint to blame.
    const code = /^([a-z-]+): /.exec(counted.common.error)?.[1];
    const modelCall = kind === 'editor' || code === 'model';
    const where = modelCall
      ? `Endpoint: ${target.field ? `${target.endpoint} (${target.field})` : target.endpoint}`
      : `Raised by the ${code ?? 'episode'}, not by a model call (the task model: ${target.endpoint})`;
    const fix =
      modelCall && target.field
        ? ` (an endpoint option can be changed there: --set ${target.field}=<value>)`
        : '';
    const message =
      `the run stopped: ${what}. Most common (${counted.common.count}×): ${counted.common.error.replace(/\.+$/, '')}. ` +
      `${where}. What was collected is kept in ${this.runDir}; fix the cause, then continue with ` +
      `\`skillrl resume ${this.runDir}\`${fix}.`;
    this.trippedError = new RunHealthError(message, {
      kind,
      ...counted,
      endpoint: target.endpoint,
      ...(target.field ? { field: target.field } : {}),
      runDir: this.runDir,
    });
  }
}
