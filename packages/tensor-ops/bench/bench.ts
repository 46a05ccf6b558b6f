/**
 * Loss + gradient time for a 256 × 1024 token batch on each tfjs backend present.
 * Run: `pnpm --filter @skillrl/tensor-ops bench`. Inputs come from a fixed seed; times are medians.
 */
import { createRng } from '@skillrl/core';
import * as tf from '@tensorflow/tfjs';
import {
  aggregateLoss,
  BACKEND_ORDER,
  type BackendChoice,
  initBackend,
  klPenalty,
  type LogProbModel,
  policyGradientStep,
  policyLoss,
} from '../src/index.js';

const B = 256;
const T = 1024;
const REPS = Number(process.env.BENCH_REPS ?? 5);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** Median and minimum wall time; the minimum is the steadier number on a machine shared with other work. */
async function time(fn: () => Promise<void> | void): Promise<{ median: number; min: number }> {
  await fn(); // warm-up: kernel compilation, allocation
  const samples: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return { median: median(samples), min: Math.min(...samples) };
}

function row(backend: string, label: string, t: { median: number; min: number }): string[] {
  return [backend, label, t.median.toFixed(1), t.min.toFixed(1), ((B * T) / t.min / 1000).toFixed(1)];
}

function data() {
  const rng = createRng('tensor-ops-bench');
  const n = B * T;
  const logp = new Float32Array(n);
  const old = new Float32Array(n);
  const ref = new Float32Array(n);
  const mask = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    logp[i] = -Math.abs(rng.normal(1, 0.5));
    old[i] = (logp[i] as number) + rng.normal(0, 0.1);
    ref[i] = (logp[i] as number) + rng.normal(0, 0.1);
    // Ragged sequences: each row valid up to a random length.
    mask[i] = i % T < 256 + ((Math.floor(i / T) * 2654435761) % 768) ? 1 : 0;
  }
  const adv = Float32Array.from({ length: B }, () => rng.normal());
  return { logp, old, ref, mask, adv };
}

async function benchBackend(name: BackendChoice, rows: string[][]): Promise<void> {
  try {
    await initBackend({ prefer: name, fallback: false, env: {} });
  } catch {
    rows.push([name, 'not available (reason below)', '', '', '']);
    return;
  }
  const d = data();
  const logProbs = tf.variable(tf.tensor2d(d.logp, [B, T]));
  const old = tf.tensor2d(d.old, [B, T]);
  const ref = tf.tensor2d(d.ref, [B, T]);
  const mask = tf.tensor2d(d.mask, [B, T]);
  const adv = tf.tensor1d(d.adv);
  const lossAndGrad = (kind: string, withKl: boolean) => () => {
    const { value, grads } = tf.variableGrads(() => {
      const out = policyLoss(kind, { logProbs, oldLogProbs: old, advantages: adv, mask });
      tf.dispose(Object.values(out.metrics));
      const mode = kind === 'gspo' ? 'seq-mean-token-mean' : 'token-mean';
      let loss = aggregateLoss(out.loss, mask, mode);
      if (withKl)
        loss = tf.add(loss, tf.mul(aggregateLoss(klPenalty('k3', logProbs, ref), mask, mode), 0.001));
      return loss as tf.Scalar;
    }, [logProbs]);
    // Reading one gradient value forces the computation to finish on asynchronous backends.
    grads[logProbs.name]?.dataSync();
    tf.dispose([value, ...Object.values(grads)]);
  };
  for (const kind of ['vanilla', 'gspo', 'cispo', 'gpg', 'sapo']) {
    rows.push(row(name, `${kind} loss + grad`, await time(lossAndGrad(kind, false))));
  }
  rows.push(row(name, 'vanilla + k3 KL + grad', await time(lossAndGrad('vanilla', true))));

  // The full step: a model whose output is the log-prob matrix itself, 4 micro-batches, clipping, Adam.
  // Inputs are row numbers; micro-batches are contiguous, so a slice picks them.
  const model: LogProbModel<number[]> = {
    trainableVariables: [logProbs],
    logProbs: (rowIds) => tf.slice(logProbs, [rowIds[0] ?? 0, 0], [rowIds.length, T]) as tf.Tensor2D,
  };
  const optimizer = tf.train.adam(1e-4);
  const rowIds = Array.from({ length: B }, (_, i) => i);
  const step = await time(async () => {
    await policyGradientStep(
      model,
      { inputs: rowIds, mask, advantages: adv, oldLogProbs: old, refLogProbs: ref },
      { optimizer, microBatchSize: B / 4, maxGradNorm: 1, kl: { kind: 'k3', coef: 0.001 } },
    );
  });
  rows.push(row(name, 'policyGradientStep (4 micro-batches, Adam)', step));
  tf.dispose([logProbs, old, ref, mask, adv]);
  optimizer.dispose();
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  const auto = await initBackend({ env: {} });
  for (const name of BACKEND_ORDER) await benchBackend(name, rows);
  const header = ['backend', `case (${B} × ${T} tokens)`, 'median ms', 'min ms', 'M tokens/s (min)'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  console.log(`\n${REPS} timed repetitions after one warm-up; node ${process.version}.`);
  console.log(`initBackend() picks "${auto.backend}" here:`);
  for (const t of auto.tried) console.log(`  ${t.name}: ${t.ok ? 'ok' : 'skipped'} (${t.reason})`);
}

await main();
