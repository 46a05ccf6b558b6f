import { COMPARE_SOURCE } from './compare-source.js';
import { NOISY_EXPERT_SOURCE } from './noisy-expert-source.js';
import { packageFiles } from './package-files.js';
import { SCAFFOLD_VERSIONS } from './scaffold-versions.js';
import { shortName } from './write-scaffold.js';

/**
 * A standalone advantage-estimator package: a group-mean baseline registered under the package's name,
 * passing the estimator conformance suite, swapped into `run.yaml` by naming the package by path, and
 * compared with GRPO on the same rollouts by `npm run compare`.
 */
export function estimatorScaffold(name: string): Record<string, string> {
  const id = shortName(name);
  return {
    // What \`npx skillrl run run.yaml\` and \`npm run compare\` use: the CLI, the orchestrator (runConfig)
    // and the household tasks (the noisy expert reads household's planner too).
    ...packageFiles(
      name,
      `A skillrl advantage estimator: ${id}.`,
      ['advantage-estimator'],
      {
        '@skillrl/cli': SCAFFOLD_VERSIONS.cli,
        '@skillrl/orchestrator': SCAFFOLD_VERSIONS.orchestrator,
        '@skillrl/task-household': SCAFFOLD_VERSIONS.taskHousehold,
      },
      { compare: 'node compare.mjs' },
    ),
    'src/index.ts': `/** ${name} — a skillrl advantage estimator, registered under ${JSON.stringify(id)}. */
import type { EstimatorFactory } from '@skillrl/core';
import { createEstimator } from './create-estimator.js';

export { createEstimator, type EstimatorOptions } from './create-estimator.js';

/** What skillrl reads: every estimator of the package by name (\`estimator: { package, name, options }\`). */
export const estimators: Record<string, EstimatorFactory> = {
  ${JSON.stringify(id)}: createEstimator as EstimatorFactory,
};
`,
    'src/create-estimator.ts': `import type { AdvantageBatch, AdvantageEstimator, EstimateOptions } from '@skillrl/core';
import { groupScores, InvalidArgumentError } from '@skillrl/core';

export interface EstimatorOptions {
  /** Multiplies every advantage (default 1). */
  scale?: number;
}

/**
 * A_i = scale · (r_i − mean of the finite scores in i's group): a group-mean baseline without
 * normalisation. A non-finite score gets 0 and is left out of its group's mean. Replace the body with your
 * method; the conformance suite checks the contract (shape, determinism, group isolation, lengths).
 */
export function createEstimator(options: EstimatorOptions = {}): AdvantageEstimator {
  const scale = options.scale ?? 1;
  if (!Number.isFinite(scale)) throw new InvalidArgumentError('options.scale', \`expected a finite number, got \${scale}\`);
  return {
    name: ${JSON.stringify(id)},
    estimate(batch: AdvantageBatch, estimateOptions?: EstimateOptions) {
      const n = batch.scores.length;
      if (batch.groupIds.length !== n) {
        throw new InvalidArgumentError('batch.groupIds', \`expected \${n} entries (one per score), got \${batch.groupIds.length}\`);
      }
      const out = estimateOptions?.out;
      const advantages = out && out.length === n ? out.fill(0) : new Float64Array(n);
      // core's grouping: finite scores by group, and the bookkeeping the conformance suite requires.
      const { members: groups, metrics } = groupScores(batch.scores, batch.groupIds, batch.successes);
      for (const members of groups) {
        const mean = members.reduce((sum, i) => sum + (batch.scores[i] as number), 0) / members.length;
        for (const i of members) advantages[i] = scale * ((batch.scores[i] as number) - mean);
      }
      return { advantages, metrics };
    },
  };
}
`,
    'src/estimator.test.ts': `import { describeEstimatorConformance } from '@skillrl/testkit/vitest';
import { describe, expect, it } from 'vitest';
import { createEstimator, estimators } from './index.js';

// The conformance suite every skillrl advantage estimator passes.
describeEstimatorConformance(${JSON.stringify(id)}, () => createEstimator());

describe(${JSON.stringify(id)}, () => {
  it('golden values: each score minus its group mean', () => {
    const result = createEstimator({ scale: 2 }).estimate({ scores: [1, 0, 1, 3], groupIds: ['a', 'a', 'b', 'b'] });
    expect(Array.from(result.advantages)).toEqual([1, -1, -2, 2]);
  });

  it('is registered under its name', () => {
    expect(estimators[${JSON.stringify(id)}]).toBe(createEstimator);
  });
});
`,
    'noisy-expert.mjs': NOISY_EXPERT_SOURCE,
    'compare.mjs': COMPARE_SOURCE,
    'run.yaml': `# This estimator swapped into a short offline run: household tasks (@skillrl/task-household), a task model
# that follows household's expert plan but acts at random half the time (so the rewards of a group differ and
# advantages are not all 0), two steps, no in-process training (trainer "external").
#
#   npm run build && npx skillrl run run.yaml    # the CLI (@skillrl/cli) and @skillrl/task-household are
#                                                # devDependencies
#   npm run compare                              # this run with grpo's advantages beside this estimator's
method: internalize
seed: 1
name: ${id}-smoke
adapter: household
tasks: { split: train, limit: 8 }
agent: { package: "./noisy-expert.mjs", options: { noise: 0.5 } }
concurrency: 4
maxSteps: 10
estimator:
  package: "./" # this package, by path; once installed elsewhere: "${name}"
  name: ${id}
  options: { scale: 1 }
internalize:
  variant: grpo # GRPO's protocol (no skills); the estimator above gives the advantages instead of GRPO's
  steps: 2
  tasksPerStep: 2
  groupSize: 4
  validateEvery: 2
  validation: { split: valid_seen, limit: 4 }
  trainer: external
`,
    'README.md': `# ${name}

A [skillrl](https://www.npmjs.com/package/skillrl) advantage estimator, scaffolded by
\`npm create skillrl estimator\` (or \`skillrl init estimator\`). It depends on \`@skillrl/core\` alone; its
tests run \`@skillrl/testkit\`'s estimator conformance suite.

\`\`\`sh
npm install
npm test            # the conformance suite and golden values
npm run build       # dist/: ESM, CommonJS and types
npx skillrl run run.yaml   # a short run (@skillrl/cli and task-household are devDependencies)
npm run compare     # the same run with grpo: the advantages each gave the same rollouts, side by side
\`\`\`

\`run.yaml\` plays household tasks with \`noisy-expert.mjs\` (household's expert plan, a random action half the
time), which wins about half its episodes: a group's rewards differ, so the estimators have something to
differ on. \`npm run compare\` (\`compare.mjs\`) runs it twice on the same seed, with this estimator and with
\`grpo\`: the same rollouts and rewards, other advantages (this one subtracts the group mean; GRPO also
divides by the group's standard deviation).

An estimator's \`metrics\` must hold \`frac_zero_std\`, \`groups_all_pass\` and \`groups_all_fail\` (the
conformance suite's defaults; a run reports them per step as \`adv_frac_zero_std\`, …); \`groupScores\` from
\`@skillrl/core\` groups a batch and computes them, as this package does. A run config swaps it in by path or by
package:

\`\`\`yaml
estimator: { package: "${name}", name: ${id}, options: { scale: 1 } }
\`\`\`
`,
  };
}
