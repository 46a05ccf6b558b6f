import type { RunProgress } from '@skillrl/orchestrator';
import cliProgress from 'cli-progress';

export interface ProgressDisplay {
  update(progress: RunProgress): void;
  stop(): void;
}

/**
 * A progress bar on stderr (rollouts done/total, ETA, success so far, phase), only when stderr is a
 * terminal: piped output and `--json` stay clean.
 */
export function createProgressDisplay(enabled: boolean): ProgressDisplay {
  if (!enabled || !process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: '{bar} {value}/{total} rollouts | ETA {eta_formatted} | success {success} | {phase}',
      hideCursor: true,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      const payload = { success: `${(100 * p.successRate).toFixed(1)}%`, phase: p.phase };
      if (!started) {
        bar.start(Math.max(p.total, 1), p.done, payload);
        started = true;
      } else {
        bar.setTotal(Math.max(p.total, 1));
        bar.update(p.done, payload);
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
