import type { AdvantageResult } from '@skillrl/core';
import { InvalidArgumentError } from '@skillrl/core';

/** One part of a combination: its weight, its name and what it returned. */
export interface WeightedResult {
  weight: number;
  name: string;
  result: AdvantageResult;
}

/**
 * The step-level credit of a weighted sum, or `undefined` when no part has any: for step t of sample i,
 * Σ_k w_k · (part k's step advantage, else its sample advantage broadcast over the steps, exactly what a
 * learner would do with that part alone). Without this, combining `gigpo` with a sample-level estimator would
 * silently drop the step credit. A sample no part gives steps for (every step-level part skipped it) has none.
 */
export function combineStepAdvantages(
  parts: readonly WeightedResult[],
  size: number,
): (Float64Array | undefined)[] | undefined {
  if (!parts.some((p) => p.result.stepAdvantages !== undefined)) return undefined;
  const combined: (Float64Array | undefined)[] = new Array(size);
  for (let i = 0; i < size; i++) {
    let steps = -1;
    parts.forEach(({ name, result }, k) => {
      const row = result.stepAdvantages?.[i];
      if (row === undefined) return;
      if (steps === -1) steps = row.length;
      else if (row.length !== steps) {
        throw new InvalidArgumentError(
          `parts[${k}]`,
          `${name} returned ${row.length} step advantages for sample ${i}, an earlier part ${steps}`,
        );
      }
    });
    if (steps === -1) {
      combined[i] = undefined;
      continue;
    }
    const out = new Float64Array(steps);
    for (const { weight, result } of parts) {
      const row = result.stepAdvantages?.[i];
      const broadcast = result.advantages[i] as number;
      for (let t = 0; t < steps; t++) out[t]! += weight * (row ? (row[t] as number) : broadcast);
    }
    combined[i] = out;
  }
  return combined;
}
