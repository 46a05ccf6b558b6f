import { RunHealthError, redactSecrets, VoidSignalError } from '@skillrl/core';
import type { RunOptions, RunResult } from '@skillrl/orchestrator';
import { describeError } from './describe-error.js';
import { EXIT_CODES, isResumableStop } from './exit-codes.js';
import { interruptSignal } from './interrupt-signal.js';
import { createProgressDisplay } from './progress-bar.js';

export interface RunIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/**
 * Runs or resumes a run with the CLI's signal handling, progress bar and exit statuses: 0 and the result
 * printed; 3 when the health budget stopped it (errors, or units with no learning signal); 130 / 143 when SIGINT / SIGTERM cancelled it (after its
 * `run:end` cancelled was written). Returns the status for the two stops (their message, or
 * `{ ok: false, status, error }` under `--json`, already printed); other errors are rethrown.
 */
export async function runWithSignals(
  io: RunIo,
  json: boolean,
  dir: string,
  start: (options: Pick<RunOptions, 'signal' | 'onProgress'>) => Promise<RunResult>,
  print: (result: RunResult) => void,
): Promise<number> {
  const bar = createProgressDisplay(!json);
  const interrupt = interruptSignal();
  try {
    const result = await start({ signal: interrupt.signal, onProgress: (p) => bar.update(p) });
    bar.stop();
    print(result);
    return EXIT_CODES.ok;
  } catch (error) {
    bar.stop();
    const received = interrupt.received();
    if (received) {
      const message = `cancelled by ${received}: the run stopped cleanly (run:end cancelled); continue it with \`skillrl resume ${dir}\``;
      if (json) {
        io.out(
          JSON.stringify({
            ok: false,
            status: 'cancelled',
            dir,
            error: { code: 'SKILLRL_CANCELLED', message, signal: received },
          }),
        );
      } else io.err(message);
      return EXIT_CODES[received];
    }
    // The health budget's stops (errors, or no learning signal) leave a resumable run: exit 3.
    // So do the rollout workers' stops (no worker, Redis unreachable, a failed job): exit 3 too.
    if (RunHealthError.isInstance(error) || VoidSignalError.isInstance(error) || isResumableStop(error)) {
      const d = describeError(error);
      if (json) io.out(JSON.stringify({ ok: false, status: 'failed', dir, error: d.json }));
      else io.err(`error: ${redactSecrets(d.message)}`);
      return EXIT_CODES.health;
    }
    throw error;
  } finally {
    bar.stop();
    interrupt.dispose();
  }
}
