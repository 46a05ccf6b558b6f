/**
 * Confidence bounds for a with − without success-rate gap, from counts: Wilson's score interval for each
 * side and Newcombe's hybrid score interval (Newcombe 1998, method 10) for their difference. SKILLC retires
 * a skill type on the upper bound of its recent pooled gap, so the rule is about information, not episode
 * counts: 0/40 vs 0/40 has a narrow interval around 0 but says nothing about the skill, hence the separate
 * with-skill-success requirement in the curriculum; 20/40 vs 20/40 is still ±0.14 wide at z = 1.28.
 */

/** Successes out of episodes on one side (z = 1 with the skill, z = 0 without). */
export interface SideCounts {
  successes: number;
  episodes: number;
}

/** Wilson's score interval [lower, upper] for a proportion k/n at normal quantile z; [0, 1] when n = 0. */
export function wilsonInterval(successes: number, episodes: number, z: number): [number, number] {
  if (episodes <= 0) return [0, 1];
  const p = successes / episodes;
  const z2 = z * z;
  const denominator = 1 + z2 / episodes;
  const centre = (p + z2 / (2 * episodes)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / episodes + z2 / (4 * episodes * episodes))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * Newcombe's interval for p_with − p_without at normal quantile z (each end one-sided at that z):
 *   lower = d − √((p1 − l1)² + (u0 − p0)²),  upper = d + √((u1 − p1)² + (p0 − l0)²)
 * with (l, u) each side's Wilson interval. It stays inside [−1, 1], is never degenerate at 0/n or n/n
 * (unlike the Wald interval), and its width shrinks as 1/√n.
 */
export function gapInterval(
  withSkill: SideCounts,
  withoutSkill: SideCounts,
  z: number,
): { gap: number; lower: number; upper: number } {
  const p1 = withSkill.episodes > 0 ? withSkill.successes / withSkill.episodes : 0;
  const p0 = withoutSkill.episodes > 0 ? withoutSkill.successes / withoutSkill.episodes : 0;
  const [l1, u1] = wilsonInterval(withSkill.successes, withSkill.episodes, z);
  const [l0, u0] = wilsonInterval(withoutSkill.successes, withoutSkill.episodes, z);
  const gap = p1 - p0;
  return {
    gap,
    lower: gap - Math.sqrt((p1 - l1) ** 2 + (u0 - p0) ** 2),
    upper: gap + Math.sqrt((u1 - p1) ** 2 + (p0 - l0) ** 2),
  };
}

/**
 * The fewest episodes per side at which a gap of exactly 0 at p = ½ (the widest case) has an upper bound
 * below τ at quantile z: below that many pooled episodes, no honest evidence can retire a type. The SKILLC
 * curriculum's default `minEvidence`; a validation of n episodes per side reaches it in ⌈N / n⌉ validations.
 * Infinity when τ ≤ 0 (a bound on a non-negative width never drops below it) or no N up to 1e5 suffices.
 */
export function evidenceForBound(tau: number, z: number): number {
  if (!(tau > 0)) return Number.POSITIVE_INFINITY;
  for (let n = 2; n <= 100_000; n += 2) {
    const half = { successes: n / 2, episodes: n };
    if (gapInterval(half, half, z).upper < tau) return n;
  }
  return Number.POSITIVE_INFINITY;
}
