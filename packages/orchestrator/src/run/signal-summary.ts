/**
 * The run's signal account as summary.json keeps it, from `RunSession.signalAccount()`: the training units,
 * how many carried no learning signal, the share of zero-variance groups, the zero updates, the errored
 * rollouts the method steps left out of the math (counted where left out), and any further `signal_*` count
 * a method step reports (Skill-R1's candidates identical to their parent, its fallbacks), by name.
 */
export function signalSummary(account: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {
    units: account.units ?? 0,
    voidUnits: account.voidUnits ?? 0,
    zeroUpdates: account.zeroUpdates ?? 0,
    rolloutsLeftOut: account.rollouts_errored ?? 0,
  };
  const groups = account.signal_groups ?? 0;
  if (groups > 0) {
    out.groups = groups;
    out.zeroVarianceGroups = account.signal_zero_variance_groups ?? 0;
    out.zeroVarianceGroupShare = out.zeroVarianceGroups / groups;
  }
  const known = ['void', 'zero_update', 'zero_variance_share', 'zero_variance_groups', 'groups'];
  for (const [key, value] of Object.entries(account)) {
    const name = /^signal_(.+)$/.exec(key)?.[1];
    if (!name || known.includes(name)) continue;
    out[name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = value;
  }
  return out;
}
