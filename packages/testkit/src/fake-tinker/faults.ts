import { createRng } from '@skillrl/core';
import type { FakeTinkerFault, FakeTinkerOptions, FakeTinkerRequestInfo } from './types.js';

/** Chooses the HTTP fault of a request, if any: streaks first, then `plan`, then a seeded draw at `rate`. */
export type FaultDraw = (info: FakeTinkerRequestInfo) => FakeTinkerFault | undefined;

export function createFaultDraw(
  faults: FakeTinkerOptions['faults'],
  settings: { seed: number; rate: number; kinds: readonly FakeTinkerFault[] },
): FaultDraw {
  const { seed, rate, kinds } = settings;
  const streaks = (faults?.streaks ?? []).map((s) => ({ ...s, left: s.count }));
  return (info) => {
    for (const streak of streaks) {
      const routes = streak.routes;
      const applies = routes ? routes.includes(info.route) : info.route !== 'retrieve_future';
      if (applies && streak.left > 0) {
        streak.left -= 1;
        return streak.fault;
      }
    }
    const planned = faults?.plan?.(info);
    if (planned) return planned;
    if (rate <= 0) return undefined;
    const rng = createRng(
      `${seed}/${info.method}/${info.route}/${JSON.stringify(info.body ?? null)}/${info.attempt}`,
    );
    return rng.float() < rate ? rng.pick(kinds) : undefined;
  };
}
