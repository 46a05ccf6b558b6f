import { clip01 } from './check-options.js';

/**
 * r = clip(Δ̄_t / max(Δ̄_first, gapFloor), 0, 1): how much of the first measured gap is still there; λ_k and
 * ρ_k scale with it.
 *
 * The floor keeps r continuous in both arguments (|∂r/∂Δ̄_t| ≤ 1/gapFloor, |∂r/∂Δ̄_first| ≤ |Δ̄_t|/gapFloor²).
 * Without it the ratio has no limit as Δ̄_first → 0 and no value at Δ̄_first ≤ 0, and an earlier rule that
 * jumped between 0 and 1 there made λ_k swing on one episode's noise. A type whose skill did not help at
 * first (Δ̄_first ≤ gapFloor) is measured against the floor: its correction grows smoothly if a gap opens.
 * Before the first measurement (either argument null) r = 1: the skill is assumed needed.
 */
export function attributionRatio(smoothed: number | null, first: number | null, gapFloor: number): number {
  if (smoothed === null || first === null) return 1;
  return clip01(smoothed / Math.max(first, gapFloor));
}
