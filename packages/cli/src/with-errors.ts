import { redactSecrets } from '@skillrl/core';
import { type Command, CommanderError } from 'commander';
import { CliExit } from './cli-exit.js';
import type { CliIo, WithErrors } from './cli-io.js';
import { describeError } from './describe-error.js';

/** Every command's action wrapped alike: an error is `error: …` on stderr (with --json, `{ ok: false, error }`), exit 1. */
export function withErrorsTo(io: CliIo): WithErrors {
  return <A extends unknown[]>(fn: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      const command = args[args.length - 1] as Command;
      const json = Boolean((command.opts() as { json?: boolean }).json);
      try {
        await fn(...args);
      } catch (error) {
        if (error instanceof CliExit || error instanceof CommanderError) throw error;
        const d = describeError(error);
        if (json) io.out(JSON.stringify({ ok: false, error: d.json }));
        else io.err(`error: ${redactSecrets(d.message)}`);
        throw new CliExit(1);
      }
    };
}
