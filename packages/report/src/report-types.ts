/** Which loop wrote the run. */
export type RunMethod = 'evolve' | 'internalize' | 'unknown';

export type RunStatus = 'completed' | 'failed' | 'cancelled' | 'in progress' | 'not started';

export interface SuccessCount {
  episodes: number;
  passed: number;
  /** passed / episodes; `null` when there were no episodes. */
  rate: number | null;
}

export interface FamilySummary {
  family: string;
  /** Every rollout of the run with the skill in the prompt (z = 1). */
  withSkill: SuccessCount;
  /** Every rollout without it (z = 0). */
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
  rollouts: number;
  /** Rollouts that could not finish (model calls failed, environment crash), by error code. */
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
