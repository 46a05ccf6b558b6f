import type { Usage } from '@skillrl/core';

/** Prices per million tokens, per model id, in the user's currency. */
export type PriceTable = Record<string, { input: number; output: number }>;

/** Cost of `usage` for `model`; `undefined` when the table has no price for it. */
export function costOf(usage: Usage, model: string, prices: PriceTable | undefined): number | undefined {
  const price = prices?.[model];
  if (!price) return undefined;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/** Sums usages; `cost` and `requests` are summed where present. */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b ? { ...b } : undefined;
  if (!b) return { ...a };
  const out: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
  if (a.requests !== undefined || b.requests !== undefined)
    out.requests = (a.requests ?? 0) + (b.requests ?? 0);
  if (a.cost !== undefined || b.cost !== undefined) out.cost = (a.cost ?? 0) + (b.cost ?? 0);
  return out;
}
