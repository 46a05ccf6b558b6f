import type { AgentContext, Task } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSkillReadingAgent } from '../agent/create-skill-reading-agent.js';
import { createVocabulary } from '../text/vocabulary.js';
import {
  decodeDecisionRecord,
  type FeatureCounts,
  featuresOf,
  isStoredDecisionRecord,
  MAX_PACKED_WORDS,
  packFeatureCounts,
  type StoredDecisionRecord,
  unpackFeatureCounts,
} from './decision-record.js';

const counts: fc.Arbitrary<FeatureCounts> = fc.integer({ min: 1, max: MAX_PACKED_WORDS }).chain((words) =>
  fc.record({
    words: fc.constant(words),
    inGoal: fc.integer({ min: 0, max: words }),
    inObservation: fc.integer({ min: 0, max: words }),
    pending: fc.integer({ min: 0, max: words }),
    inMemory: fc.integer({ min: 0, max: words }),
    taken: fc.integer({ min: 0, max: 3 }),
    last: fc.integer({ min: 0, max: 1 }),
  }),
);

const task: Task = {
  id: 't',
  family: 'f',
  split: 'train',
  prompt: 'Your task is to: put a clean mug in shelf.',
};
const context = (admissibleActions: string[]): AgentContext => ({
  task,
  condition: 1,
  skill: { name: 's', description: 'd', body: '1. Take the mug.\n2. Clean the mug with the sinkbasin.\n' },
  observation: 'You see a mug 1 and a sinkbasin 1.',
  history: [],
  stepIndex: 0,
  admissibleActions,
  seed: 3,
});

describe('stored decision records (v2)', () => {
  it('packs feature counts into one small integer and back, exactly (property)', () => {
    fc.assert(
      fc.property(counts, (c) => {
        const code = packFeatureCounts(c) as number;
        expect(Number.isInteger(code) && code >= 0 && code < 2 ** 28).toBe(true);
        expect(unpackFeatureCounts(code)).toEqual(c);
        expect(featuresOf(unpackFeatureCounts(code))).toEqual(featuresOf(c));
      }),
      { numRuns: 500, seed: 3 },
    );
    expect(
      packFeatureCounts({
        words: MAX_PACKED_WORDS + 1,
        inGoal: 0,
        inObservation: 0,
        pending: 0,
        inMemory: 0,
        taken: 0,
        last: 0,
      }),
    ).toBeUndefined();
  });

  it('decodes after a JSON round trip to the record the agent scored, features stored whole when too wide', async () => {
    const vocabulary = createVocabulary(['take', 'mug', 'clean', 'sinkbasin', 'go', 'to', 'shelf']);
    const agent = createSkillReadingAgent({ vocabulary, seed: 2 });
    const wide = `take ${Array.from({ length: MAX_PACKED_WORDS + 4 }, (_, i) => `thing${i}`).join(' ')}`;
    for (const [admissible, packed] of [
      [['take mug 1 from countertop 1', 'clean mug 1 with sinkbasin 1', 'go to shelf 1'], true],
      [['take mug 1 from countertop 1', wide], false],
    ] as const) {
      const action = await agent.act(context([...admissible]));
      const stored = action.info?.policy as StoredDecisionRecord;
      expect(isStoredDecisionRecord(stored)).toBe(true);
      expect(stored.featureCounts !== undefined).toBe(packed);
      expect(stored.feats !== undefined).toBe(!packed);
      expect('cand' in stored).toBe(false);
      const record = agent.decisionRecord(stored);
      expect(record?.cand).toHaveLength(admissible.length);
      const decoded = decodeDecisionRecord(JSON.parse(JSON.stringify(stored)), vocabulary);
      expect(decoded).toEqual(record);
      // Another agent with the vocabulary decodes it the same way; a v1 record passes through as it is.
      const other = createSkillReadingAgent({ vocabulary, seed: 9 });
      expect(other.decisionRecord(JSON.parse(JSON.stringify(stored)))).toEqual(record);
      expect(decodeDecisionRecord(record, vocabulary)).toBe(record);
      expect(JSON.stringify(stored).length).toBeLessThan(JSON.stringify(record).length);
    }
    expect(decodeDecisionRecord({ v: 2, candidates: ['a'], chosen: 1 }, vocabulary)).toBeUndefined();
    expect(agent.decisionRecord(undefined)).toBeUndefined();
  });
});
