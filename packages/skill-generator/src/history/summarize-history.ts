import type { EpisodeSummary, GenerationRecord, Skill } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';

/** One episode as an editor reads it: where it went wrong and what the verifier said. */
export interface EpisodeNote {
  generation: number;
  trajectoryId: string;
  reward: number;
  passed: boolean;
  failingStep?: number;
  lastObservation?: string;
  reason?: string;
}

/** An earlier skill with the mean verified reward it earned. */
export interface SkillNote {
  generation: number;
  skill: Skill;
  reward: number;
  /** True for the skill carried into the next generation. */
  carried: boolean;
}

export interface FailureSummary {
  /** Failed episodes in the window. */
  count: number;
  /** The earliest first-failing step among them, when any episode reports one. */
  firstFailingStep?: number;
  /** Mean first-failing step over the episodes that report one. */
  meanFailingStep?: number;
  /** Verifier reasons with how often each occurred, most frequent first. */
  reasons: { reason: string; count: number }[];
  /** The most recent failures, newest first. */
  examples: EpisodeNote[];
}

/**
 * What an editor needs from the history H_{g−1}, in one shape both the step editor (as features) and an
 * LLM editor (as prompt text, through `renderHistory`) read.
 */
export interface HistorySummary {
  /** Generation records in the whole history. */
  generations: number;
  /** The generations the window covers, oldest first. */
  window: number[];
  /** Reward of the carried skill per generation in the window, oldest first. */
  rewards: { generation: number; reward: number }[];
  lastReward?: number;
  bestReward?: number;
  /** Last carried reward minus the one before it (0 with fewer than two generations). */
  trend: number;
  /** The best carried skill over the whole history (the earliest on ties). */
  best?: SkillNote;
  /** The skill carried out of the latest generation. */
  last?: SkillNote;
  /** Every distinct skill in the window (candidates and carried), by generation, then reward, descending. */
  skills: SkillNote[];
  failures: FailureSummary;
  successes: { count: number; examples: EpisodeNote[] };
}

export interface SummarizeHistoryOptions {
  /** How many of the latest generations the window covers (default 3). */
  lastGenerations?: number;
  /** Episode examples kept per kind (default 3). */
  maxExamples?: number;
  /** Last observations are cut to this many characters, with an ellipsis (default 240). */
  maxObservationChars?: number;
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidArgumentError(name, `expected an integer >= 1, got ${value}`);
  }
  return value;
}

function skillKey(skill: Skill): string {
  return `${skill.name}\n${skill.description}\n${skill.body}`;
}

function note(generation: number, episode: EpisodeSummary, maxChars: number): EpisodeNote {
  const out: EpisodeNote = {
    generation,
    trajectoryId: episode.trajectoryId,
    reward: episode.reward,
    passed: episode.passed,
  };
  if (episode.failingStep !== undefined) out.failingStep = episode.failingStep;
  if (episode.lastObservation !== undefined) {
    const text = episode.lastObservation.trim();
    out.lastObservation = text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
  }
  if (episode.reason !== undefined) out.reason = episode.reason;
  return out;
}

/**
 * Summarises the Skill-R1 history for an editor: the carried rewards of the latest generations, the best
 * skill so far, every skill in the window with its reward, and where episodes failed (first failing step,
 * last observation, verifier reason). Records are read in generation order whatever order they come in.
 */
export function summarizeHistory(
  history: readonly GenerationRecord[],
  options: SummarizeHistoryOptions = {},
): HistorySummary {
  if (!Array.isArray(history)) {
    throw new InvalidArgumentError('history', 'expected an array of GenerationRecord');
  }
  const lastGenerations = positiveInteger('options.lastGenerations', options.lastGenerations, 3);
  const maxExamples = positiveInteger('options.maxExamples', options.maxExamples, 3);
  const maxChars = positiveInteger('options.maxObservationChars', options.maxObservationChars, 240);

  const records = [...history].sort((a, b) => a.generation - b.generation);
  const windowRecords = records.slice(-lastGenerations);

  let best: SkillNote | undefined;
  for (const r of records) {
    if (best === undefined || r.reward > best.reward) {
      best = { generation: r.generation, skill: r.skill, reward: r.reward, carried: true };
    }
  }
  const lastRecord = records.at(-1);
  const previous = records.at(-2);

  const skills: SkillNote[] = [];
  const failures: EpisodeNote[] = [];
  const successes: EpisodeNote[] = [];
  for (const r of windowRecords) {
    const carriedKey = skillKey(r.skill);
    const seen = new Map<string, SkillNote>();
    for (const c of r.candidates ?? []) {
      const key = skillKey(c.skill);
      const prior = seen.get(key);
      // The same text sampled twice in a generation is one skill; keep its better score.
      if (prior === undefined || c.reward > prior.reward) {
        seen.set(key, {
          generation: r.generation,
          skill: c.skill,
          reward: c.reward,
          carried: key === carriedKey,
        });
      }
    }
    if (!seen.has(carriedKey)) {
      seen.set(carriedKey, { generation: r.generation, skill: r.skill, reward: r.reward, carried: true });
    }
    skills.push(...[...seen.values()].sort((a, b) => b.reward - a.reward));
    for (const e of r.failures ?? []) failures.push(note(r.generation, e, maxChars));
    for (const e of r.successes ?? []) successes.push(note(r.generation, e, maxChars));
  }

  const steps = failures.map((f) => f.failingStep).filter((s): s is number => s !== undefined);
  const reasonCounts = new Map<string, number>();
  for (const f of failures) {
    if (f.reason !== undefined) reasonCounts.set(f.reason, (reasonCounts.get(f.reason) ?? 0) + 1);
  }
  const failureSummary: FailureSummary = {
    count: failures.length,
    reasons: [...reasonCounts.entries()]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    examples: failures.slice().reverse().slice(0, maxExamples),
  };
  if (steps.length > 0) {
    failureSummary.firstFailingStep = Math.min(...steps);
    failureSummary.meanFailingStep = steps.reduce((s, x) => s + x, 0) / steps.length;
  }

  const summary: HistorySummary = {
    generations: records.length,
    window: windowRecords.map((r) => r.generation),
    rewards: windowRecords.map((r) => ({ generation: r.generation, reward: r.reward })),
    trend: lastRecord !== undefined && previous !== undefined ? lastRecord.reward - previous.reward : 0,
    skills,
    failures: failureSummary,
    successes: { count: successes.length, examples: successes.slice().reverse().slice(0, maxExamples) },
  };
  if (lastRecord !== undefined) {
    summary.lastReward = lastRecord.reward;
    summary.last = {
      generation: lastRecord.generation,
      skill: lastRecord.skill,
      reward: lastRecord.reward,
      carried: true,
    };
  }
  if (best !== undefined) {
    summary.best = best;
    summary.bestReward = best.reward;
  }
  return summary;
}
