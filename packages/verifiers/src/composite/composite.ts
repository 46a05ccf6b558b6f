import { InvalidArgumentError, type Verdict, type Verifier } from '@skillrl/core';
import { type AsyncVerifier, checkThreshold, makeVerdict } from '../shared/index.js';

export interface WeightedVerifier {
  verifier: Verifier;
  weight: number;
}

export interface CompositeOptions {
  name?: string;
  /**
   * `all`: passes when every part passes; score = the lowest part score.
   * `any`: passes when some part passes; score = the highest part score.
   * `weighted`: score = Σ wᵢ·sᵢ / Σ wᵢ; passes when score >= threshold (default 0.5).
   */
  mode: 'all' | 'any' | 'weighted';
  /** Plain verifiers (weight 1) or `{ verifier, weight }`. */
  verifiers: Array<Verifier | WeightedVerifier>;
  /** Only for `weighted`. */
  threshold?: number;
}

/** Combines verifiers. Every part runs (in parallel) so `details.parts` always shows each verdict. */
export function composite(options: CompositeOptions): AsyncVerifier {
  const parts = (options.verifiers ?? []).map((v) => ('verifier' in v ? v : { verifier: v, weight: 1 }));
  const name = options.name ?? `${options.mode}(${parts.map((p) => p.verifier.name).join(', ')})`;
  if (!['all', 'any', 'weighted'].includes(options.mode)) {
    throw new InvalidArgumentError(
      `${name} options.mode`,
      `expected "all", "any" or "weighted", got ${JSON.stringify(options.mode)}`,
    );
  }
  if (parts.length === 0)
    throw new InvalidArgumentError(`${name} options.verifiers`, 'expected at least one verifier');
  for (const [i, p] of parts.entries()) {
    if (!(typeof p.weight === 'number' && p.weight >= 0 && Number.isFinite(p.weight))) {
      throw new InvalidArgumentError(
        `${name} options.verifiers[${i}].weight`,
        `expected a finite number >= 0, got ${String(p.weight)}`,
      );
    }
  }
  const totalWeight = parts.reduce((s, p) => s + p.weight, 0);
  if (options.mode === 'weighted' && totalWeight <= 0) {
    throw new InvalidArgumentError(
      `${name} options.verifiers`,
      'weights sum to 0; give at least one a positive weight',
    );
  }
  const threshold = checkThreshold(name, options.threshold, 0.5);
  return {
    name,
    async verify(task, trajectory) {
      const verdicts: Verdict[] = await Promise.all(
        parts.map(async (p) => p.verifier.verify(task, trajectory)),
      );
      const details = {
        parts: verdicts.map((v, i) => ({ name: parts[i]?.verifier.name, weight: parts[i]?.weight, ...v })),
      };
      const label = (i: number) =>
        `${parts[i]?.verifier.name}: ${verdicts[i]?.reason ?? (verdicts[i]?.passed ? 'passed' : 'failed')}`;
      if (options.mode === 'weighted') {
        const score = verdicts.reduce((s, v, i) => s + v.score * (parts[i]?.weight ?? 0), 0) / totalWeight;
        return makeVerdict(
          score,
          threshold,
          `weighted score ${score.toFixed(3)} (threshold ${threshold})`,
          details,
        );
      }
      const scores = verdicts.map((v) => v.score);
      if (options.mode === 'all') {
        const failing = verdicts.map((v, i) => (v.passed ? -1 : i)).filter((i) => i >= 0);
        const score = Math.min(...scores);
        const verdict = makeVerdict(
          score,
          0,
          failing.length === 0 ? `all ${parts.length} passed` : failing.map(label).join('; '),
          details,
        );
        return { ...verdict, passed: failing.length === 0 };
      }
      const winner = verdicts.findIndex((v) => v.passed);
      const score = Math.max(...scores);
      const verdict = makeVerdict(
        score,
        0,
        winner >= 0 ? label(winner) : `none of ${parts.length} passed`,
        details,
      );
      return { ...verdict, passed: winner >= 0 };
    },
  };
}
