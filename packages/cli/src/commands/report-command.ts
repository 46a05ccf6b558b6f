import { resolve } from 'node:path';
import { writeReport } from '@skillrl/report';
import type { Command } from 'commander';
import type { CliIo, WithErrors } from '../cli-io.js';

/** `skillrl report <run-dir>`: report.html rebuilt. */
export function addReportCommand(program: Command, io: CliIo, withErrors: WithErrors): void {
  program
    .command('report')
    .description(
      'rebuild report.html of a run directory (self-contained charts and tables; works on unfinished runs)',
    )
    .argument('<run-dir>', 'the run directory')
    .option('--json', 'print the path and the summary as JSON')
    .action(
      withErrors(async (dir: string, opts: { json?: boolean }) => {
        const written = writeReport(resolve(dir));
        if (opts.json) io.out(JSON.stringify({ ok: true, path: written.path, summary: written.summary }));
        else io.out(`report: ${written.path}`);
      }),
    );
}
