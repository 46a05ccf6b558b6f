import { runCli } from './create-cli.js';
import { quietOnEpipe } from './quiet-epipe.js';

// `skillrl … | head -1`: the reader leaving is not an error of the command.
quietOnEpipe(process.stdout);
quietOnEpipe(process.stderr);

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
