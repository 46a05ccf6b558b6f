/** Which loop wrote the run. */
export type RunMethod = 'evolve' | 'internalize' | 'unknown';

export type RunStatus = 'completed' | 'failed' | 'cancelled' | 'in progress' | 'not started';

export interface SuccessCount {
  /** Rollouts that ended without an error: what the rate is over. */
  episodes: number;
  passed: number;
  /** passed / episodes; `null` when there were no episodes. */
  rate: number | null;
  /**
   * Rollouts that ended in an error (a model call that failed past its retries, an environment or verifier
   * that threw): not results, so not in `episodes` or the rate, counted here.
   */
  errored: number;
}

export interface FamilySummary {
  family: string;
  /** Every rollout of the run with the skill in the prompt (z = 1), each as it finally ended. */
  withSkill: SuccessCount;
  /** Every rollout without it (z = 0), each as it finally ended. */
  withoutSkill: SuccessCount;
  /** The last paired validation of this type (SKILLC). */
  lastValidation?: { step: number; withSkill: number; withoutSkill: number };
  /** Step at which the type's skill was retired for the last time, if it is retired now. */
  retiredAt?: number;
}

/** The numbers at the top of the report, also returned to the caller (the CLI prints them). */
export interface ReportSummary {
  runId: string;
  dir: string;
  method: RunMethod;
  /** As the run wrote it: `evolve:grpo`, `evolve:inference`, `internalize`… */
  methodLabel: string;
  seed?: number;
  status: RunStatus;
  startedAt?: string;
  /** run:end's time, or the last event's while the run is going. */
  endedAt?: string;
  durationMs?: number;
  /** Rollouts of the run, each counted once as its latest record (a rollout run again on resume is one). */
  rollouts: number;
  /**
   * Of those, rollouts whose latest record ended in an error (model calls failed, environment crash), by
   * error code: left out of every success rate.
   */
  rolloutErrors: number;
  errorCodes: Record<string, number>;
  /** run:end's error, when the run failed. */
  runError?: string;
  families: FamilySummary[];
  /** Skill-R1: the last generation recorded (0 is the starting skill, so G generations give G). */
  generations?: number;
  /** SKILLC: the last training step recorded. */
  steps?: number;
  /** Ids of the charts on the page. */
  charts: string[];
  /** What was missing, damaged or unfinished in the run directory; shown at the top of the page. */
  notes: string[];
}

export interface BuildReportOptions {
  /** Page title; defaults to `skillrl report — <run id>`. */
  title?: string;
  /** Tasks whose skill text and diffs are shown (the rest are listed in the reward table only). Default 20. */
  maxSkillTasks?: number;
  /** Training-metric charts drawn at most. Default 12. */
  maxMetricCharts?: number;
}

export interface ReportResult {
  html: string;
  summary: ReportSummary;
}
