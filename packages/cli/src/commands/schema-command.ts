import { configSchema } from '@skillrl/orchestrator';
import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';

/** `skillrl schema`: the config files' JSON Schema. */
export function addSchemaCommand(program: Command, io: CliIo): void {
  program
    .command('schema')
    .description('print the JSON Schema of config files')
    .action(() => {
      io.out(JSON.stringify(configSchema, null, 2));
    });
}
