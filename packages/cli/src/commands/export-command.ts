import { EXPORT_FORMATS, type ExportFormat, exportRun } from '@skillrl/export';
import { type Command, CommanderError } from 'commander';
import type { CliIo, WithErrors } from '../cli-io.js';

/** `skillrl export <run-dir> --format jsonl|trl|verl [--out f]`. */
export function addExportCommand(program: Command, io: CliIo, withErrors: WithErrors): void {
  program
    .command('export')
    .description(
      "write the trained component's rows for an external trainer: trl (chat messages as sent, reply, advantage, token ids), verl (prompt/response token ids, mask, advantage), or the flat jsonl rows",
    )
    .argument('<run-dir>', 'the run directory')
    .option('--format <format>', `row layout: ${EXPORT_FORMATS.join(', ')}`, 'jsonl')
    .option(
      '--out <file>',
      'output file (default <run-dir>/export.jsonl, export-trl.jsonl, export-verl.jsonl)',
    )
    .option('--json', 'print the result as JSON')
    .action(
      withErrors(async (dir: string, opts: { format: string; out?: string; json?: boolean }) => {
        if (!EXPORT_FORMATS.includes(opts.format as ExportFormat)) {
          throw new CommanderError(
            2,
            'skillrl.format',
            `--format supports ${EXPORT_FORMATS.map((f) => `"${f}"`).join(', ')}, got "${opts.format}"`,
          );
        }
        const result = exportRun(dir, {
          format: opts.format as ExportFormat,
          ...(opts.out ? { out: opts.out } : {}),
        });
        if (opts.json) {
          io.out(JSON.stringify({ ok: true, ...result }));
          return;
        }
        io.out(`wrote ${result.rows} ${result.format} rows to ${result.path}`);
        // Notes say what the rows leave out: on stderr, so `export … | head` and redirects keep only the summary.
        for (const note of result.notes) io.err(`note: ${note}`);
      }),
    );
}
