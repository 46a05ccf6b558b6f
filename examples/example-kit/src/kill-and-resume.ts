import { type CliChild, type CliExit, spawnCli } from './spawn-cli.js';

/** Where to kill a `skillrl` process: the nth request of a route to the fake server since the process started. */
export type KillPoint = readonly [route: string, nth: number];

/**
 * SIGKILL of a real `skillrl` child process at chosen requests to a fake server, then `skillrl resume`, until
 * the run completes: one kill point per process. Give `plan` to the fake server as its request hook (it kills
 * the process and lets the request through), then `run`.
 */
export function killAndResume(points: readonly KillPoint[]) {
  let current: CliChild | undefined;
  let counts: Record<string, number> = {};
  let point: KillPoint | undefined;

  function plan(request: { route: string }): undefined {
    counts[request.route] = (counts[request.route] ?? 0) + 1;
    if (point && request.route === point[0] && counts[request.route] === point[1]) {
      current?.kill();
      point = undefined;
    }
    return undefined;
  }

  /**
   * `skillrl run <config> --run-dir <dir>`, then `skillrl resume <dir>` after each kill: the signal each
   * process ended with, in order (the last one's null when the run completed), and the last process's exit.
   */
  async function run(
    configPath: string,
    dir: string,
  ): Promise<{ signals: (string | null)[]; last: CliExit }> {
    const signals: (string | null)[] = [];
    let last: CliExit | undefined;
    for (let attempt = 0; attempt <= points.length; attempt++) {
      counts = {};
      point = points[attempt];
      current = spawnCli(attempt === 0 ? ['run', configPath, '--run-dir', dir] : ['resume', dir]);
      last = await current.done;
      signals.push(last.signal);
    }
    return { signals, last: last as CliExit };
  }

  return { plan, run };
}
