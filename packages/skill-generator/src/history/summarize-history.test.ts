import type { GenerationRecord, Skill } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';
import { describe, expect, it } from 'vitest';
import { summarizeHistory } from './summarize-history.js';

const skill = (name: string, body = '1. Take the object.\n'): Skill => ({
  name,
  description: `${name} skill`,
  body,
});
const S1 = skill('s1');
const S2 = skill('s2');
const S3 = skill('s3');
const S4 = skill('s4');
const S5 = skill('s5');
const long = 'x'.repeat(300);

// Given out of order on purpose: the summary sorts by generation.
const history: GenerationRecord[] = [
  {
    generation: 2,
    skill: S2,
    reward: 0.5,
    candidates: [
      { skill: S2, reward: 0.5 },
      { skill: S3, reward: 0 },
      { skill: S2, reward: 0.25 },
    ],
    failures: [
      {
        trajectoryId: 't3',
        reward: 0,
        passed: false,
        failingStep: 6,
        reason: 'goal not reached',
        lastObservation: ' Nothing happens. ',
      },
    ],
    successes: [{ trajectoryId: 't4', reward: 1, passed: true }],
  },
  {
    generation: 1,
    skill: S1,
    reward: 0.25,
    candidates: [
      { skill: S1, reward: 0.25 },
      { skill: S4, reward: 0 },
    ],
    failures: [
      { trajectoryId: 't1', reward: 0, passed: false, failingStep: 2, reason: 'goal not reached' },
      {
        trajectoryId: 't2',
        reward: 0,
        passed: false,
        failingStep: 4,
        reason: 'timeout',
        lastObservation: long,
      },
    ],
  },
  { generation: 3, skill: S5, reward: 0.4 },
];

describe('summarizeHistory', () => {
  it('summarises the window: rewards, trend, best, skills and failures', () => {
    const s = summarizeHistory(history, { lastGenerations: 2 });
    expect(s.generations).toBe(3);
    expect(s.window).toEqual([2, 3]);
    expect(s.rewards).toEqual([
      { generation: 2, reward: 0.5 },
      { generation: 3, reward: 0.4 },
    ]);
    expect(s.lastReward).toBe(0.4);
    // trend = 0.4 − 0.5
    expect(s.trend).toBeCloseTo(-0.1, 12);
    expect(s.best).toEqual({ generation: 2, skill: S2, reward: 0.5, carried: true });
    expect(s.bestReward).toBe(0.5);
    expect(s.last).toEqual({ generation: 3, skill: S5, reward: 0.4, carried: true });
    // g2: S2 sampled twice (0.5 and 0.25) is one skill at 0.5, carried; S3 at 0. g3: S5 only (no candidates).
    expect(s.skills).toEqual([
      { generation: 2, skill: S2, reward: 0.5, carried: true },
      { generation: 2, skill: S3, reward: 0, carried: false },
      { generation: 3, skill: S5, reward: 0.4, carried: true },
    ]);
    expect(s.failures).toEqual({
      count: 1,
      firstFailingStep: 6,
      meanFailingStep: 6,
      reasons: [{ reason: 'goal not reached', count: 1 }],
      examples: [
        {
          generation: 2,
          trajectoryId: 't3',
          reward: 0,
          passed: false,
          failingStep: 6,
          reason: 'goal not reached',
          lastObservation: 'Nothing happens.',
        },
      ],
    });
    expect(s.successes.count).toBe(1);
  });

  it('counts failures over the default three generations, newest examples first, long observations cut', () => {
    const s = summarizeHistory(history, { maxExamples: 2 });
    expect(s.window).toEqual([1, 2, 3]);
    expect(s.failures.count).toBe(3);
    // failing steps 2, 4, 6: earliest 2, mean (2 + 4 + 6) / 3 = 4
    expect(s.failures.firstFailingStep).toBe(2);
    expect(s.failures.meanFailingStep).toBe(4);
    expect(s.failures.reasons).toEqual([
      { reason: 'goal not reached', count: 2 },
      { reason: 'timeout', count: 1 },
    ]);
    expect(s.failures.examples.map((e) => e.trajectoryId)).toEqual(['t3', 't2']);
    const cut = s.failures.examples[1]?.lastObservation ?? '';
    expect(cut).toHaveLength(240);
    expect(cut.endsWith('…')).toBe(true);
    // Best over the whole history, not the window; the earliest wins a tie.
    expect(summarizeHistory([...history, { generation: 4, skill: S1, reward: 0.5 }]).best?.generation).toBe(
      2,
    );
  });

  it('summarises an empty history as nothing known', () => {
    expect(summarizeHistory([])).toEqual({
      generations: 0,
      window: [],
      rewards: [],
      trend: 0,
      skills: [],
      failures: { count: 0, reasons: [], examples: [] },
      successes: { count: 0, examples: [] },
    });
  });

  it('rejects bad options naming them', () => {
    expect(() => summarizeHistory(history, { lastGenerations: 0 })).toThrow(InvalidArgumentError);
    expect(() => summarizeHistory(history, { maxExamples: 1.5 })).toThrow(/options.maxExamples/);
    expect(() => summarizeHistory(null as never)).toThrow(/Invalid history/);
  });
});
