/** A rate in [0, 1] as a percentage; `—` when there is nothing to rate. */
export function formatRate(rate: number | null | undefined): string {
  return rate === null || rate === undefined || !Number.isFinite(rate) ? '—' : `${(rate * 100).toFixed(1)}%`;
}

/** A signed difference of two rates in percentage points. */
export function formatGap(gap: number | undefined): string {
  if (gap === undefined || !Number.isFinite(gap)) return '—';
  const points = gap * 100;
  return `${points > 0 ? '+' : points < 0 ? '−' : '±'}${Math.abs(points).toFixed(1)} pt`;
}

export function formatReward(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : '—';
}

/** `3 h 02 min`, `4 min 12 s`, `850 ms`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** An ISO time as `2026-01-05 09:00:00 UTC`; anything unparseable is shown as it was written. */
export function formatTime(iso: string | undefined): string {
  if (iso === undefined) return '—';
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC` : iso;
}
