import { startTracing, type TracingOptions } from './start-tracing.js';

/** The commands that run episodes, and so make spans; the others never load the SDK. */
export const TRACED_COMMANDS: ReadonlySet<string> = new Set(['run', 'resume', 'eval', 'demo', 'worker']);

/**
 * Runs a CLI command with tracing set up first (when its command runs episodes and the OTLP variables are
 * set) and shut down after, whatever the command's outcome: a finished run, a failure, a run cancelled by
 * SIGINT/SIGTERM (which ends through here with 130/143), a worker stopped by a signal. The exit waits for
 * the last spans at most the exporter's timeout.
 */
export async function withCliTracing(
  argv: readonly string[],
  options: Pick<TracingOptions, 'warn'>,
  command: () => Promise<number>,
): Promise<number> {
  const name = argv[0];
  if (name === undefined || !TRACED_COMMANDS.has(name)) return command();
  const tracing = await startTracing(options);
  try {
    return await command();
  } finally {
    await tracing.shutdown();
  }
}
