/** Numbers as a reader wants them: rates to two decimals, NaN and null as a dash. */
export function num(value, digits = 2) {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

/** A mean with its interval, `0.42 [0.30, 0.55]`. */
export function withInterval(mean, lo, hi) {
  const interval = Number.isFinite(lo) && Number.isFinite(hi) ? ` [${num(lo)}, ${num(hi)}]` : ' [–]';
  return `${num(mean)}${interval}`;
}

export function ago(iso) {
  if (!iso) return '–';
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 60) return `${Math.round(s)} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(iso).toISOString().slice(0, 16).replace('T', ' ');
}

export function progressText(progress) {
  const unit = progress.unit === 'generation' ? 'generation' : 'step';
  return progress.total !== undefined
    ? `${unit} ${progress.done}/${progress.total}`
    : `${unit} ${progress.done}`;
}
