/**
 * Errors as a worker reports them: the first of each text at once, then that text at most once per
 * `everyMs`, with how many were held back. A worker whose Redis is down gets ECONNREFUSED from each of its
 * connections on every reconnect, several a second, for as long as the outage lasts: once is enough.
 */
export function throttleErrors(
  report: (message: string) => void,
  everyMs = 30_000,
  now: () => number = Date.now,
): (message: string) => void {
  const seen = new Map<string, { last: number; held: number }>();
  return (message) => {
    const t = now();
    const entry = seen.get(message);
    if (entry && t - entry.last < everyMs) {
      entry.held++;
      return;
    }
    report(
      entry?.held
        ? `${message} (and ${entry.held} time(s) more in the last ${Math.round((t - entry.last) / 1000)} s)`
        : message,
    );
    seen.set(message, { last: t, held: 0 });
    // Texts that name a job differ each time: forget those whose window has passed, so this stays small.
    if (seen.size > 100) {
      for (const [key, e] of seen) if (t - e.last >= everyMs) seen.delete(key);
    }
  };
}
