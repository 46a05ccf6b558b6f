/**
 * `pnpm bench`: the household engine's speed and the random baseline, as tables.
 * Single process, single thread: the numbers are one core's.
 */
import { performance } from 'node:perf_hooks';
import {
  FAMILY_LABELS,
  generateGame,
  HOUSEHOLD_FAMILIES,
  HOUSEHOLD_SPLITS,
  HouseholdEnvironment,
  type HouseholdFamily,
  planActions,
  runRandomEpisode,
} from '../src/index.js';

const SEED = 2026;

function randomAgentSpeed(seconds: number): { steps: number; episodes: number; stepsPerSecond: number } {
  const games = Array.from(
    { length: 300 },
    (_, i) => generateGame({ split: 'train', seed: SEED, index: i }).game,
  );
  const envs = games.map((g) => new HouseholdEnvironment(g));
  // Warm up the JIT before timing.
  for (let i = 0; i < 300; i++) runRandomEpisode(envs[i % envs.length] as HouseholdEnvironment, `warm/${i}`);
  let steps = 0;
  let episodes = 0;
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) {
    for (let k = 0; k < 50; k++) {
      steps += runRandomEpisode(
        envs[episodes % envs.length] as HouseholdEnvironment,
        `${SEED}/${episodes}`,
      ).steps;
      episodes++;
    }
  }
  const elapsed = (performance.now() - start) / 1000;
  return { steps, episodes, stepsPerSecond: steps / elapsed };
}

function generationTime(): Record<string, string> {
  const row: Record<string, string> = {};
  // Warm up every split's code path before timing any of them.
  for (const split of HOUSEHOLD_SPLITS)
    for (let i = 0; i < 1000; i++) generateGame({ split, seed: SEED + 1, index: i });
  for (const split of HOUSEHOLD_SPLITS) {
    const start = performance.now();
    for (let i = 0; i < 1000; i++) generateGame({ split, seed: SEED, index: i });
    row[split] = `${(performance.now() - start).toFixed(1)} ms`;
  }
  return row;
}

function plannerTime(): Record<string, number> {
  const n = 1000;
  let length = 0;
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const env = new HouseholdEnvironment(generateGame({ split: 'valid_seen', seed: SEED, index: i }).game);
    env.reset();
    length += planActions(env).length;
  }
  return {
    games: n,
    'ms per game (generate + plan)': Number(((performance.now() - start) / n).toFixed(3)),
    'mean plan length': Number((length / n).toFixed(2)),
  };
}

function randomSuccess(perType: number): Record<string, string> {
  const wins = new Map<HouseholdFamily, number>();
  for (let i = 0; i < perType * 6; i++) {
    const { game, family } = generateGame({ split: 'valid_seen', seed: SEED, index: i });
    if (runRandomEpisode(new HouseholdEnvironment(game), `${SEED}/success/${i}`).won) {
      wins.set(family, (wins.get(family) ?? 0) + 1);
    }
  }
  const row: Record<string, string> = {};
  let total = 0;
  for (const f of HOUSEHOLD_FAMILIES) {
    total += wins.get(f) ?? 0;
    row[FAMILY_LABELS[f]] = `${(((wins.get(f) ?? 0) / perType) * 100).toFixed(1)}%`;
  }
  row.All = `${((total / (perType * 6)) * 100).toFixed(1)}%`;
  return row;
}

const speed = randomAgentSpeed(3);
console.log(`\n@skillrl/task-household bench (seed ${SEED}, node ${process.version}, one thread)\n`);
console.table({
  'random agent (admissibleActions + step)': {
    'steps/s': Math.round(speed.stepsPerSecond),
    steps: speed.steps,
    episodes: speed.episodes,
    target: '>= 50,000',
  },
});
console.log('generation time per 1,000 games');
console.table({ generateGame: generationTime() });
console.log('expert planner on valid_seen');
console.table({ planActions: plannerTime() });
console.log('random agent success, 50-step episodes, valid_seen, 500 games per type');
console.table({ success: randomSuccess(500) });
