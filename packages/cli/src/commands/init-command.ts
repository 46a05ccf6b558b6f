import type { Command } from 'commander';
import { runCreateSkillrl } from 'create-skillrl';
import { CliExit } from '../cli-exit.js';
import type { CliIo } from '../cli-io.js';

/**
 * `skillrl init …` is create-skillrl's CLI (`npm create skillrl …`) under this name: `init adapter|estimator
 * <dir>`, `init run <file> --template <name>`, `init --list`. Every argument after `init` goes to it as is,
 * so the two take the same arguments and print the same next steps.
 */
export function addInitCommand(program: Command, io: CliIo): void {
  program
    .command('init')
    .description(
      'write a new plugin package (adapter, estimator) or one of the shipped run configs (create-skillrl; skillrl init --help)',
    )
    .argument('[args...]', 'adapter <dir> | estimator <dir> | run <file> --template <name> | --list')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (args: string[]) => {
      const code = await runCreateSkillrl(args, io, { name: 'skillrl init' });
      if (code !== 0) throw new CliExit(code);
    });
}
