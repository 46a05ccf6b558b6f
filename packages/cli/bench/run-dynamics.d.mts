// Types of run-dynamics.mjs, for the orchestrator's tests.
export interface GapPoint {
  step: number;
  gap: number;
}
export function gapsOf(summary: { gapByStep?: { step: number; gap: number | null }[] }): {
  gaps: GapPoint[];
  ratio: number;
};
export function gapCurve(
  summaries: readonly { gapByStep?: { step: number; gap: number | null }[] }[],
): (GapPoint & { seeds: number })[];
export function retirementsOf(dir: string): { family: string; step: number; allFail: boolean }[];
