/** Where a trained trajectory's rows come from: its unit and the advantages the update gave it. */
export interface RowSource {
  unit: string;
  /** The trajectory's advantage, broadcast over its steps when it has no step advantages. */
  advantage: number;
  /** Step-level credit (GiGPO's), one per step of the trajectory: what a per-step row carries instead. */
  stepAdvantages?: readonly number[];
}

/** The advantage of the trajectory's step `k`: its own when the update gave step advantages, else the trajectory's. */
export function stepAdvantageOf(source: RowSource, k: number): number {
  return source.stepAdvantages?.[k] ?? source.advantage;
}
