import { resolve } from 'node:path';
import { InvalidArgumentError } from '@skillrl/core';
import type { Command } from 'commander';
import type { CliIo, WithErrors } from '../cli-io.js';

interface ServeFlags {
  host?: string;
  port?: string;
  token?: string;
}

/**
 * `skillrl serve [dir]`: the live web app over the run directories under `dir` (@skillrl/serve). It listens
 * until SIGINT or SIGTERM, then closes its streams and connections and exits 0. The token may come from
 * `SKILLRL_SERVE_TOKEN` instead of the flag, so it stays out of the process list and the shell's history.
 */
export function addServeCommand(program: Command, io: CliIo, withErrors: WithErrors): void {
  program
    .command('serve')
    .description(
      'a live local web app over the run directories under dir: runs, one run, compare, skills, trajectories (updates as runs write)',
    )
    .argument('[dir]', 'a folder holding run directories, or one run directory', 'runs')
    .option('--host <host>', 'address to listen on (default 127.0.0.1; any other needs --token)')
    .option('--port <port>', 'port to listen on (default: a free one, printed)')
    .option(
      '--token <token>',
      'required of every request, 16+ characters; needed with a non-loopback --host (or SKILLRL_SERVE_TOKEN)',
    )
    .action(
      withErrors(async (dir: string, opts: ServeFlags) => {
        const port = opts.port === undefined ? undefined : Number(opts.port);
        if (port !== undefined && !Number.isInteger(port)) {
          throw new InvalidArgumentError(
            '--port',
            `"${opts.port}" is not a port number; give 1-65535, or leave it out`,
          );
        }
        const token = opts.token ?? (process.env.SKILLRL_SERVE_TOKEN || undefined);
        const stop = new AbortController();
        const onSignal = () => stop.abort();
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        try {
          // Loaded here, not at the CLI's start: the server (Hono and its Node adapter) is for this command alone.
          const { serveCommandLine, startServe } = await import('@skillrl/serve');
          const server = await startServe({
            dir: resolve(dir),
            ...(opts.host !== undefined ? { host: opts.host } : {}),
            ...(port !== undefined ? { port } : {}),
            ...(token !== undefined ? { token } : {}),
          });
          io.out(serveCommandLine(server.url, token));
          await new Promise<void>((done) => {
            if (stop.signal.aborted) done();
            else stop.signal.addEventListener('abort', () => done(), { once: true });
          });
          await server.close();
          io.err('skillrl serve: stopped');
        } finally {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        }
      }),
    );
}
