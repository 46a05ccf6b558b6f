// `pnpm test`: every package's tests through turbo, with the longest suite started first.
//
// On two cores the test phase is CPU-bound, and its critical path is @skillrl/cli's suite (the CLI's end-to-end
// tests: about 280 s). turbo starts tasks in the order they become ready, which puts that suite, at the top of the
// dependency graph, behind every other package's (about 200 s of them): the tail then runs it alone. Two turbo
// runs side by side, one slot each, start it at once and let the other packages fill the second core beside it.
// Each run says what failed; the exit status is the first non-zero one. Arguments go to both runs.
import { spawn } from 'node:child_process';

const LONGEST = '@skillrl/cli';
const extra = process.argv.slice(2);

function turbo(filter) {
  return new Promise((resolve) => {
    const child = spawn(
      'pnpm',
      ['exec', 'turbo', 'run', 'test', '--concurrency=1', '--continue', `--filter=${filter}`, ...extra],
      { stdio: 'inherit' },
    );
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', (error) => {
      console.error(`test-all: could not start turbo: ${error.message}`);
      resolve(1);
    });
  });
}

const codes = await Promise.all([turbo(LONGEST), turbo(`!${LONGEST}`)]);
const failed = codes.find((code) => code !== 0);
if (failed !== undefined) console.error(`test-all: a test run exited ${failed}`);
process.exit(failed ?? 0);
