import { EXIT_CODES } from './exit-codes.js';

export interface Interrupt {
  signal: AbortSignal;
  /** The signal received, if any. */
  received(): 'SIGINT' | 'SIGTERM' | undefined;
  dispose(): void;
}

/**
 * SIGINT (Ctrl-C) and SIGTERM stop a run cleanly: episodes in flight are cancelled, `run:end` says
 * `cancelled`, and `skillrl resume` continues it; the CLI then exits 130 or 143. A second signal exits at
 * once with the same status (the run directory is crash-safe, so nothing written is lost).
 */
export function interruptSignal(): Interrupt {
  const controller = new AbortController();
  let received: 'SIGINT' | 'SIGTERM' | undefined;
  const on = (name: 'SIGINT' | 'SIGTERM') => () => {
    if (received) process.exit(EXIT_CODES[received]);
    received = name;
    controller.abort(new Error(`interrupted (${name}); continue with \`skillrl resume <run-dir>\``));
  };
  const onInt = on('SIGINT');
  const onTerm = on('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return {
    signal: controller.signal,
    received: () => received,
    dispose: () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}
