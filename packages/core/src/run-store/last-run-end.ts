import type { RunEndEvent } from '../contracts/events.js';
import { readRunStream } from './read-run-stream.js';

/**
 * The last `run:end` of a run directory's events (either layout), read without writing to it: whether the
 * run completed, failed or was cancelled the last time it ran. `undefined` for a run that never ended
 * (still going, or killed).
 */
export function lastRunEnd(dir: string): RunEndEvent | undefined {
  let last: RunEndEvent | undefined;
  for (const event of readRunStream<{ type?: unknown }>(dir, 'events')) {
    if (event && event.type === 'run:end') last = event as RunEndEvent;
  }
  return last;
}
