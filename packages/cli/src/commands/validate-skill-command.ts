import type { Command } from 'commander';
import { CliExit } from '../cli-exit.js';
import type { CliIo, WithErrors } from '../cli-io.js';
import { validateSkillPath } from '../validate-skill-path.js';

/** `skillrl validate-skill <path>`: a skill against the Agent Skills rules. */
export function addValidateSkillCommand(program: Command, io: CliIo, withErrors: WithErrors): void {
  program
    .command('validate-skill')
    .description(
      'check a skill (its folder, or a SKILL.md) against the Agent Skills rules, including that its name matches its folder; exits 1 naming each rule broken',
    )
    .argument('<path>', 'a skill folder (holding SKILL.md) or a SKILL.md file')
    .option('--json', 'print the result as JSON')
    .option(
      '--lenient',
      'accept what skills clients add beyond the spec (disable-model-invocation, argument-hint, version, any other field; missing referenced files) with warnings instead of errors',
    )
    .action(
      withErrors(async (target: string, opts: { json?: boolean; lenient?: boolean }) => {
        const { path, name, problems, warnings } = validateSkillPath(target, {
          lenient: opts.lenient === true,
        });
        if (opts.json) io.out(JSON.stringify({ ok: problems.length === 0, path, name, problems, warnings }));
        else if (problems.length === 0) io.out(`ok: ${path}${name ? ` (${name})` : ''}`);
        else {
          io.err(`invalid SKILL.md: ${path}`);
          for (const p of problems) io.err(`  [${p.rule}] ${p.field}: ${p.message}`);
        }
        for (const w of opts.json ? [] : warnings) io.err(`warning: ${w}`);
        if (problems.length > 0) throw new CliExit(1);
      }),
    );
}
