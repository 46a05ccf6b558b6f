/** The estimator scaffold's `npm run compare`: the same run with this estimator and with GRPO, side by side. */
export const COMPARE_SOURCE = `// Runs run.yaml twice on the same seed, once with this package's estimator and once with GRPO's, and prints
// the advantages each gave the same rollouts. The agent does not learn (trainer: external), so both runs play
// the same episodes and get the same rewards: only the estimator differs.
//
//   npm run build && npm run compare     # --json: the figures as one JSON line
import { rmSync } from 'node:fs';
import { loadConfig, readRunStreamLines, runConfig } from '@skillrl/orchestrator';

const json = process.argv.includes('--json');
const loaded = loadConfig('run.yaml');
const ours = loaded.config.estimator;
const name = typeof ours === 'string' ? ours : ours.name;

/** Every training rollout of a run of run.yaml with \`estimator\`: its id, reward and advantage. */
async function advantagesWith(estimator, label) {
  // This script's own folders, run again from scratch each time.
  const runDir = \`runs/compare/\${label}\`;
  rmSync(runDir, { recursive: true, force: true });
  const result = await runConfig({ ...loaded, config: { ...loaded.config, estimator } }, { runDir });
  const rewards = new Map();
  for (const line of readRunStreamLines(result.dir, 'rollouts')) {
    const trajectory = JSON.parse(line);
    rewards.set(trajectory.id, trajectory.reward);
  }
  const rows = [];
  for (const line of readRunStreamLines(result.dir, 'advantages')) {
    for (const row of JSON.parse(line).rows) {
      rows.push({ id: row.trajectoryId, reward: rewards.get(row.trajectoryId), advantage: row.advantage });
    }
  }
  return rows;
}

const mine = await advantagesWith(ours, name);
const grpo = new Map((await advantagesWith('grpo', 'grpo')).map((row) => [row.id, row.advantage]));
const meanAbs = (values) => values.reduce((a, v) => a + Math.abs(v), 0) / (values.length || 1);
const differ = mine.filter((row) => Math.abs(row.advantage - (grpo.get(row.id) ?? Number.NaN)) > 1e-9);
const summary = {
  estimator: name,
  rollouts: mine.length,
  rewarded: mine.filter((row) => row.reward > 0).length,
  differ: differ.length,
  meanAbs: { [name]: meanAbs(mine.map((row) => row.advantage)), grpo: meanAbs([...grpo.values()]) },
};
if (json) {
  console.log(JSON.stringify(summary));
} else {
  // A group: the rollouts of one task in one step (a rollout id up to its first ":").
  const groups = new Map();
  for (const row of mine) {
    const group = row.id.slice(0, row.id.indexOf(':'));
    groups.set(group, [...(groups.get(group) ?? []), row]);
  }
  const signed = (x) => \`\${x < 0 ? '' : '+'}\${x.toFixed(2)}\`;
  const width = Math.max(...[...groups.keys()].map((g) => g.length));
  console.log(\`advantages of the same \${mine.length} training rollouts (seed \${loaded.config.seed}), \${name} and grpo:\`);
  for (const [group, rows] of groups) {
    console.log(
      \`  \${group.padEnd(width)}  rewards \${rows.map((r) => r.reward).join(' ')}  \${name} \${rows.map((r) => signed(r.advantage)).join(' ')}  grpo \${rows.map((r) => signed(grpo.get(r.id))).join(' ')}\`,
    );
  }
  console.log(
    \`\${name} gave \${summary.differ} of \${summary.rollouts} rollouts another advantage than grpo (\${summary.rewarded} rewarded); mean |A| \${summary.meanAbs[name].toFixed(3)} against grpo's \${summary.meanAbs.grpo.toFixed(3)}\`,
  );
}
`;
