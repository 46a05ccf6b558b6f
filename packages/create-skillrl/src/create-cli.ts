import { relative } from 'node:path';
import { Command, CommanderError } from 'commander';
import { type CreatedPackage, createPackage, createRunConfig } from './create-scaffold.js';
import type { ScaffoldKind } from './next-steps.js';
import { CliExit, runProgram } from './run-program.js';
import { RUN_TEMPLATES } from './run-templates.js';
import { CREATE_SKILLRL_VERSION } from './scaffold-versions.js';

export interface CreateIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

export interface CreateCliOptions {
  /** How usage lines name the command: `create-skillrl` (the default) or `skillrl init`. */
  name?: string;
}

const defaultIo: CreateIo = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
};

const KINDS: Record<ScaffoldKind, string> = {
  adapter: 'a task-adapter package: the conformance suite with its solution, tsup build, run.yaml',
  estimator: 'an advantage-estimator package: the conformance suite, tsup build, run.yaml, compare with grpo',
};

const shown = (path: string) => relative(process.cwd(), path) || '.';

function templateLines(): string[] {
  return RUN_TEMPLATES.map((t) => `  ${t.name.padEnd(22)} ${t.describe} (needs ${t.needs.join(', ')})`);
}

function errorJson(error: unknown): Record<string, unknown> {
  if (
    error !== null &&
    typeof error === 'object' &&
    'toJSON' in error &&
    typeof error.toJSON === 'function'
  ) {
    const { name: _name, ...rest } = error.toJSON() as Record<string, unknown>;
    return rest;
  }
  return { code: 'SKILLRL_ERROR', message: error instanceof Error ? error.message : String(error) };
}

/** The `create-skillrl` program (`skillrl init` is the same program under another name). */
export function createSkillrlProgram(io: CreateIo = defaultIo, options: CreateCliOptions = {}): Command {
  const name = options.name ?? 'create-skillrl';
  const program = new Command(name)
    .description(
      'write a skillrl task-adapter or advantage-estimator package, or one of the shipped run configs',
    )
    .option('--list', 'list the package kinds and the run templates')
    .option('--json', 'with --list: as JSON')
    .showHelpAfterError()
    // Options after a command are the command's: `adapter my-adapter --json` is the adapter's --json.
    .enablePositionalOptions()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .addHelpText(
      'after',
      name === 'create-skillrl'
        ? '\nExamples:\n  npm create skillrl@latest adapter my-adapter\n  npm create skillrl estimator my-estimator\n  npm create skillrl run skillc.yaml -- --template household-skillc'
        : `\nExamples:\n  ${name} adapter my-adapter\n  ${name} run skillc.yaml --template household-skillc`,
    )
    .action((opts: { list?: boolean; json?: boolean }) => {
      if (opts.json && opts.list) {
        io.out(JSON.stringify({ ok: true, kinds: Object.keys(KINDS), templates: RUN_TEMPLATES }));
      } else if (opts.list) {
        io.out('packages:');
        for (const [kind, what] of Object.entries(KINDS)) io.out(`  ${kind.padEnd(22)} ${what}`);
        io.out('run templates (run <file> --template <name>):');
        for (const line of templateLines()) io.out(line);
      } else {
        program.outputHelp();
      }
    });
  if (name === 'create-skillrl') program.version(CREATE_SKILLRL_VERSION);

  // Prints a failure as `error: …` (or one JSON line with --json) and ends with status 1.
  const guarded =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A): void => {
      const json = Boolean((args[args.length - 1] as Command).opts<{ json?: boolean }>().json);
      try {
        fn(...args);
      } catch (error) {
        if (error instanceof CommanderError) throw error;
        if (json) io.out(JSON.stringify({ ok: false, error: errorJson(error) }));
        else io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
        throw new CliExit(1);
      }
    };

  for (const kind of Object.keys(KINDS) as ScaffoldKind[]) {
    program
      .command(kind)
      .description(KINDS[kind])
      .argument('<dir>', 'the folder to create')
      .option('--name <package>', 'npm package name (default: the folder name)')
      .option('--force', 'write into a folder that is not empty')
      .option('--json', 'print what was written as JSON')
      .action(
        guarded((dir: string, opts: { name?: string; force?: boolean; json?: boolean }) => {
          const created: CreatedPackage = createPackage(kind, dir, {
            ...(opts.name === undefined ? {} : { name: opts.name }),
            force: Boolean(opts.force),
          });
          if (opts.json) {
            io.out(JSON.stringify({ ok: true, ...created }));
            return;
          }
          io.out(
            `wrote ${kind} package ${created.name} in ${shown(created.dir)}: ${created.files.join(', ')}`,
          );
          io.out(`next: ${created.next}`);
        }),
      );
  }

  program
    .command('run')
    .description(
      `a shipped run config: ${RUN_TEMPLATES.map((t) => t.name).join(', ')} (--list describes them)`,
    )
    .argument('[file]', 'the config file to write, e.g. skillc.yaml')
    .option('--template <name>', 'which config')
    .option('--list', 'list the templates and what each needs')
    .option('--force', 'overwrite the file')
    .option('--json', 'print what was written as JSON')
    .action(
      guarded(
        (
          file: string | undefined,
          opts: { template?: string; list?: boolean; force?: boolean; json?: boolean },
        ) => {
          if (opts.list && opts.json) {
            io.out(JSON.stringify({ ok: true, templates: RUN_TEMPLATES }));
            return;
          }
          if (opts.list || file === undefined || opts.template === undefined) {
            if (!opts.list) io.err(`usage: ${name} run <file> --template <name>; the templates:`);
            const out = opts.list ? io.out : io.err;
            for (const line of templateLines()) out(line);
            if (!opts.list) throw new CommanderError(2, 'skillrl.template', 'name a file and --template');
            return;
          }
          const created = createRunConfig(file, opts.template, { force: Boolean(opts.force) });
          const { template } = created;
          if (opts.json) {
            io.out(
              JSON.stringify({
                ok: true,
                template: template.name,
                needs: template.needs,
                files: created.files,
                next: created.next,
              }),
            );
            return;
          }
          io.out(
            `wrote ${created.files.map(shown).join(', ')} (template ${template.name}; needs ${template.needs.join(', ')})`,
          );
          io.out(`next: ${created.next}`);
          if (template.env)
            io.out(`the run reads ${template.env.join(', ')} from the environment: set it first`);
        },
      ),
    );
  return program;
}

/**
 * Runs `create-skillrl` (or, with `name`, `skillrl init`) on `argv` and returns the exit status: 0 ok, 1 bad
 * input (printed as `error: …`, or one JSON line with --json), 2 a usage error.
 */
export async function runCreateSkillrl(
  argv: readonly string[],
  io: CreateIo = defaultIo,
  options: CreateCliOptions = {},
): Promise<number> {
  return runProgram(createSkillrlProgram(io, options), argv, io.err);
}
