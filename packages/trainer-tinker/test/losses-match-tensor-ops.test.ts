import { createRng } from '@skillrl/core';
import { initBackend, policyLossGradients } from '@skillrl/tensor-ops';
import { tokenLoss } from '@skillrl/testkit';
import { beforeAll, describe, expect, it } from 'vitest';

// The fake Tinker server trains with Tinker's loss formulas; these are the same losses as @skillrl/tensor-ops'
// (its `vanilla` PPO without the dual clip, `cispo`, and an unclipped ratio for importance sampling), summed
// over tokens as Tinker does ("loss:sum": one sequence with seq-mean-token-sum). Checked gradient for gradient.

beforeAll(async () => {
  await initBackend({ prefer: 'cpu' });
});

function case_(seed: string, T: number) {
  const rng = createRng(seed);
  const logProbs = Array.from({ length: T }, () => -0.1 - rng.float() * 3);
  // Sampler log-probs near the learner's, so some ratios fall inside and some outside the clip range.
  const sampling = logProbs.map((l) => l + rng.normal(0, 0.25));
  const advantages = Array.from({ length: T }, () => rng.normal());
  return { logProbs, sampling, advantages };
}

const cases = [
  { tinker: 'ppo', tensorOps: { loss: 'vanilla', clipLow: 0.2, clipHigh: 0.2, dualClip: false as const } },
  { tinker: 'cispo', tensorOps: { loss: 'cispo', clipLow: 0.2, clipHigh: 0.2 } },
  {
    tinker: 'importance_sampling',
    tensorOps: { loss: 'vanilla', clipLow: 0.999999, clipHigh: 1e9, dualClip: false as const },
  },
] as const;

describe('the fake Tinker losses against @skillrl/tensor-ops', () => {
  for (const c of cases) {
    it(`${c.tinker}: ∂loss/∂log π per token equals tensor-ops' ${c.tensorOps.loss}`, async () => {
      for (const seed of ['a', 'b', 'c']) {
        const { logProbs, sampling, advantages } = case_(`${c.tinker}-${seed}`, 12);
        const ours = logProbs.map((l, i) =>
          tokenLoss(c.tinker, {
            logProb: l,
            samplingLogProb: sampling[i]!,
            advantage: advantages[i]!,
            weight: 1,
          }),
        );
        const theirs = await policyLossGradients(
          {
            logProbs: [logProbs],
            oldLogProbs: [sampling],
            advantages: [advantages],
            mask: [logProbs.map(() => 1)],
          },
          { ...c.tensorOps, aggregation: 'seq-mean-token-sum' },
        );
        ours.forEach((o, i) => {
          expect(o.dLogProb, `${c.tinker} token ${i}`).toBeCloseTo(theirs.dLogProbs[i]!, 5);
        });
        const lossSum = ours.reduce((s, o) => s + o.loss, 0);
        expect(lossSum).toBeCloseTo(theirs.metrics.loss, 4);
      }
    });
  }
});
