/**
 * `pnpm bench`: environment throughput with a random agent and the expert, reward calls, and generation
 * time per 1,000 goals. Single-threaded, so the numbers are for one core.
 */
import { createRng } from '@skillrl/core';
import {
  buildCatalogue,
  expertActions,
  generateCatalogue,
  generateProductPrices,
  generateProducts,
  getReward,
  getSyntheticGoals,
  randomAction,
  type ShopCatalogue,
  ShopEnvironment,
} from '../src/index.js';

const SEED = 0;
const rows: [string, string][] = [];
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const PRODUCTS = 1000;

/** Runs `body` for `seconds` of wall time; reports wall seconds and this process's CPU seconds. */
function timeFor(
  seconds: number,
  body: () => number,
): { count: number; seconds: number; cpuSeconds: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let count = 0;
  while (performance.now() - start < seconds * 1000) count += body();
  const used = process.cpuUsage(cpu);
  return { count, seconds: (performance.now() - start) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

const rate = (r: { count: number; seconds: number; cpuSeconds: number }) =>
  `${fmt(r.count / r.seconds)} (per CPU-second: ${fmt(r.count / r.cpuSeconds)})`;

function randomEpisodes(catalogue: ShopCatalogue, seconds: number) {
  const rng = createRng(SEED).fork('bench-agent');
  let episode = 0;
  return timeFor(seconds, () => {
    const goal = catalogue.goals[episode++ % catalogue.goals.length];
    if (!goal) return 0;
    const env = new ShopEnvironment({ catalogue, goal });
    env.reset();
    let steps = 0;
    while (steps < env.maxSteps) {
      steps += 1;
      if (env.step(randomAction(env, rng)).done) break;
    }
    return steps;
  });
}

function expertEpisodes(catalogue: ShopCatalogue, seconds: number) {
  let episode = 0;
  return timeFor(seconds, () => {
    const goal = catalogue.goals[episode++ % catalogue.goals.length];
    if (!goal) return 0;
    const env = new ShopEnvironment({ catalogue, goal });
    env.reset();
    const actions = expertActions(goal, catalogue);
    for (const action of actions) env.step(action);
    return actions.length;
  });
}

// Generation: whole catalogues (products, prices, goals, BM25 index), then the parts.
const generation: number[] = [];
let goalsTotal = 0;
let catalogue: ShopCatalogue | undefined;
generateCatalogue({ seed: 100, products: 100 }); // load the tagger/stemmer model once
for (let seed = 1; seed <= 3; seed++) {
  const start = performance.now();
  const c = generateCatalogue({ seed, products: PRODUCTS });
  generation.push(performance.now() - start);
  goalsTotal += c.goals.length;
  catalogue ??= c;
}
const totalMs = generation.reduce((a, b) => a + b, 0);
const products = generateProducts({ seed: SEED, products: PRODUCTS });
let t = performance.now();
const prices = generateProductPrices(products, createRng(SEED).fork('prices'));
const goals = getSyntheticGoals(products, prices, createRng(SEED).fork('goals'));
const goalsMs = performance.now() - t;
t = performance.now();
const productsAgain = generateProducts({ seed: SEED + 1, products: PRODUCTS });
const productsMs = performance.now() - t;
t = performance.now();
buildCatalogue(productsAgain, prices, []);
const indexMs = performance.now() - t;

rows.push([
  `catalogue of ${PRODUCTS} products (mean of 3 seeds)`,
  `${fmt(totalMs / 3)} ms, ${fmt(goalsTotal / 3)} goals`,
]);
rows.push(['generation per 1,000 goals (whole catalogue)', `${fmt((totalMs / goalsTotal) * 1000, 1)} ms`]);
rows.push(['  products only, per 1,000 products', `${fmt(productsMs, 1)} ms`]);
rows.push([
  '  goals only (get_synthetic_goals), per 1,000 goals',
  `${fmt((goalsMs / goals.length) * 1000, 2)} ms`,
]);
rows.push(['  BM25 index, per 1,000 products', `${fmt(indexMs, 1)} ms`]);

if (!catalogue) throw new Error('no catalogue');
randomEpisodes(catalogue, 0.5); // warm-up
const random = randomEpisodes(catalogue, 3);
rows.push(['random agent, steps/s', rate(random)]);
const expert = expertEpisodes(catalogue, 2);
rows.push(['expert (search, open, options, buy), steps/s', rate(expert)]);

const goal = catalogue.goals[0];
const product = goal ? catalogue.byAsin.get(goal.asin) : undefined;
if (goal && product) {
  const options = Array.isArray(goal.goal_options) ? {} : goal.goal_options;
  const rewards = timeFor(1, () => {
    for (let i = 0; i < 100; i++) getReward(product, goal, 10, options);
    return 100;
  });
  rows.push(['getReward calls/s (memoised fuzzy scores)', rate(rewards)]);
}

const width = Math.max(...rows.map(([k]) => k.length));
console.log(`@skillrl/task-shop bench (seed ${SEED}, Node ${process.version}, one thread)`);
console.log(
  'Rates are per wall-clock second; on a shared machine the per-CPU-second figure is the one-core rate.\n',
);
console.log(`| ${'measure'.padEnd(width)} | value |`);
console.log(`|${'-'.repeat(width + 2)}|-------|`);
for (const [k, v] of rows) console.log(`| ${k.padEnd(width)} | ${v} |`);
