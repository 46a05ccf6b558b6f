import { relative, resolve } from 'node:path';
import { type Command, CommanderError } from 'commander';
import {
  adapterScaffold,
  estimatorScaffold,
  packageNameFor,
  RUN_TEMPLATES,
  writeRunTemplate,
  writeScaffold,
} from '../init/index.js';
import type { CliIo, WithErrors } from './create-cli.js';

const shown = (path: string) => relative(process.cwd(), path) || '.';

/** `skillrl init adapter|estimator <dir>` and `skillrl init run <file> --template <name>`. */
export function addInitCommand(program: Command, io: CliIo, withErrors: WithErrors): void {
  const init = program
    .command('init')
    .description('write a new plugin package (adapter, estimator) or one of the shipped run configs');

  const scaffold = (kind: 'adapter' | 'estimator') =>
    init
      .command(kind)
      .description(
        kind === 'adapter'
          ? 'a standalone task-adapter package (tests with the conformance suite, tsup build, run.yaml)'
          : 'a standalone advantage-estimator package (tests with the conformance suite, tsup build, run.yaml)',
      )
      .argument('<dir>', 'the folder to create')
      .option('--name <package>', 'npm package name (default: the folder name)')
      .option('--force', 'write into a folder that is not empty')
      .option('--json', 'print what was written as JSON')
      .action(
        withErrors(async (dir: string, opts: { name?: string; force?: boolean; json?: boolean }) => {
          const name = packageNameFor(dir, opts.name);
          const files = kind === 'adapter' ? adapterScaffold(name) : estimatorScaffold(name);
          const written = writeScaffold(dir, files, Boolean(opts.force));
          const root = resolve(dir);
          if (opts.json) {
            io.out(JSON.stringify({ ok: true, kind, name, dir: root, files: written }));
            return;
          }
          io.out(`wrote ${kind} package ${name} in ${shown(root)}: ${written.join(', ')}`);
          io.out(
            `next: cd ${shown(root)} && npm install && npm test && npm run build && npx skillrl run run.yaml`,
          );
        }),
      );
  scaffold('adapter');
  scaffold('estimator');

  init
    .command('run')
    .description(
      `a shipped run config: ${RUN_TEMPLATES.map((t) => t.name).join(', ')} (skillrl init run --list describes them)`,
    )
    .argument('[file]', 'the config file to write, e.g. skillc.yaml')
    .option('--template <name>', 'which config')
    .option('--list', 'list the templates and what each needs')
    .option('--force', 'overwrite the file')
    .option('--json', 'print what was written as JSON')
    .action(
      withErrors(
        async (
          file: string | undefined,
          opts: { template?: string; list?: boolean; force?: boolean; json?: boolean },
        ) => {
          if (opts.list || file === undefined || opts.template === undefined) {
            if (!opts.list && (file === undefined || opts.template === undefined)) {
              io.err('usage: skillrl init run <file> --template <name>; the templates:');
            }
            const out = opts.list ? io.out : io.err;
            for (const t of RUN_TEMPLATES)
              out(`  ${t.name.padEnd(22)} ${t.describe} (needs ${t.needs.join(', ')})`);
            if (!opts.list) throw new CommanderError(2, 'skillrl.template', 'name a file and --template');
            return;
          }
          const { template, written } = writeRunTemplate(file, opts.template, Boolean(opts.force));
          if (opts.json) {
            io.out(
              JSON.stringify({ ok: true, template: template.name, needs: template.needs, files: written }),
            );
            return;
          }
          io.out(`wrote ${written.map(shown).join(', ')} (template ${template.name})`);
          io.out(
            `it needs ${template.needs.join(', ')} — all in \`npm install skillrl\`; then: npx skillrl check ${shown(written[0] as string)} && npx skillrl run ${shown(written[0] as string)}`,
          );
        },
      ),
    );
}
