/**
 * The skill reader's term for one candidate: β · Σ_s softmax_s(τ·sim_s + base_s) · sign_s · sim_s over the S
 * clauses. The candidate's similarities are `sims[simAt..simAt+S)`, the clauses' signs `sign[signAt..signAt+S)`;
 * `att` is scratch of length S.
 */
export function clauseRead(
  beta: number,
  tau: number,
  base: Float64Array,
  sims: Float64Array,
  simAt: number,
  sign: ArrayLike<number>,
  signAt: number,
  S: number,
  att: Float64Array,
): number {
  // The null clause (logit 0, value 0) lets an action attend to nothing when no pending clause fits.
  let max = 0;
  for (let s = 0; s < S; s++) {
    const v = tau * (sims[simAt + s] as number) + (base[s] as number);
    att[s] = v;
    if (v > max) max = v;
  }
  let z = Math.exp(-max);
  let num = 0;
  for (let s = 0; s < S; s++) {
    const e = Math.exp((att[s] as number) - max);
    z += e;
    num += e * (sign[signAt + s] as number) * (sims[simAt + s] as number);
  }
  return (beta * num) / z;
}
