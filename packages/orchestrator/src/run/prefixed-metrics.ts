/** `{ loss: 1 }` → `{ train_loss: 1 }`, dropping what is not finite: a component's metrics in an event. */
export function prefixedMetrics(
  prefix: string,
  metrics: Record<string, number> = {},
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(metrics)) if (Number.isFinite(v)) out[`${prefix}_${k}`] = v;
  return out;
}
