// Generation time per 1,000 tasks per family, and verifier throughput, against the built package (run
// `pnpm build` first). Usage: node bench/qa.bench.mjs [seed]   (default seed 0)
import { createQaAdapter, gaiaScore, parsePythonFloat } from '../dist/index.js';

const SEED = Number(process.argv[2] ?? 0);
const N = 1000;

function time(fn) {
  const start = process.hrtime.bigint();
  const result = fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, result };
}

function trajectory(answer) {
  return {
    id: 't',
    taskId: 't',
    family: 'x',
    condition: 0,
    steps: [],
    answer,
    reward: 0,
    verdict: { score: 0, passed: false },
  };
}

const rows = [];
for (const family of ['arithmetic', 'countdown', 'game24', 'knights']) {
  const adapter = createQaAdapter({ families: [family] });
  adapter.load({ split: 'train', limit: 20, seed: SEED + 1 }); // warm-up
  const train = time(() => adapter.load({ split: 'train', limit: N, seed: SEED }));
  const seen = time(() => adapter.load({ split: 'valid_seen', limit: N, seed: SEED }));
  const unseen = time(() => adapter.load({ split: 'valid_unseen', limit: N, seed: SEED }));
  const tasks = train.result;
  const verifier = adapter.verifier(tasks[0]);
  const replies = tasks.map((t) => trajectory(`FINAL ANSWER: ${String(t.answer)}`));
  let correct = 0;
  const rounds = 5;
  const verify = time(() => {
    for (let r = 0; r < rounds; r++)
      for (let i = 0; i < tasks.length; i++) correct += verifier.verify(tasks[i], replies[i]).score;
  });
  rows.push({
    family,
    'train ms/1k': train.ms.toFixed(0),
    'valid_seen ms/1k': seen.ms.toFixed(0),
    'valid_unseen ms/1k': unseen.ms.toFixed(0),
    'verify /s': Math.round((rounds * tasks.length) / (verify.ms / 1000)).toLocaleString('en-US'),
    'expert score': (correct / (rounds * tasks.length)).toFixed(3),
  });
}
console.log(`task-qa generation and verification, seed ${SEED}, Node ${process.version}`);
console.table(rows);

const cases = [
  ['$1,000', '1000'],
  ['a; b; c', 'a, b, c'],
  ['St. Louis', 'st louis'],
  ['1e3', '1000'],
  [null, 'None'],
  ['Honolulu, Braintree', 'Braintree, Honolulu'],
];
const reps = 200_000;
const scorer = time(() => {
  let hits = 0;
  for (let i = 0; i < reps; i++) {
    const [a, g] = cases[i % cases.length];
    if (gaiaScore(a, g)) hits++;
  }
  return hits;
});
const floats = ['42', ' 1_000.5 ', 'nan', '1e3', '1,000', 'abc'];
const parser = time(() => {
  let n = 0;
  for (let i = 0; i < reps; i++) if (parsePythonFloat(floats[i % floats.length]) !== undefined) n++;
  return n;
});
console.table([
  { function: 'gaiaScore', 'calls /s': Math.round(reps / (scorer.ms / 1000)).toLocaleString('en-US') },
  { function: 'parsePythonFloat', 'calls /s': Math.round(reps / (parser.ms / 1000)).toLocaleString('en-US') },
]);
