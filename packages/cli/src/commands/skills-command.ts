import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError } from '@skillrl/core';
import { testSkills } from '@skillrl/eval';
import { diffSkills, exportSkills, type SkillSelection } from '@skillrl/orchestrator';
import type { Command } from 'commander';
import type { CliIo, WithErrors } from '../cli-io.js';

interface ExportOptions {
  to: string;
  generation: string;
  measure?: boolean;
  split?: string;
  limit?: string;
  episodes: string;
  json?: boolean;
}

/** `--episodes`, `--limit`, `--split` of `skills test` and `skills export --measure`, checked. */
function measureOptions(opts: { split?: string; limit?: string; episodes: string }) {
  const episodes = Number(opts.episodes);
  if (!Number.isInteger(episodes) || episodes < 1) {
    throw new InvalidArgumentError('--episodes', `expected an integer >= 1, got "${opts.episodes}"`);
  }
  const limit = opts.limit === undefined ? undefined : Number(opts.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) {
    throw new InvalidArgumentError('--limit', `expected an integer >= 1, got "${opts.limit}"`);
  }
  return {
    episodes,
    ...(opts.split ? { split: opts.split } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
}

/** The config a run directory was started from (its manifest names it), else the copy it keeps. */
function runConfigFile(runDir: string): string {
  const manifest = join(runDir, 'run.json');
  if (existsSync(manifest)) {
    const { configPath } = JSON.parse(readFileSync(manifest, 'utf8')) as { configPath?: string };
    if (configPath && existsSync(configPath)) return configPath;
  }
  return join(runDir, 'config.json');
}

/** `skillrl skills export|test|diff`: the skill bank. */
export function addSkillsCommand(program: Command, io: CliIo, withErrors: WithErrors): void {
  // The skill bank: export a run's skills as Agent Skills folders, measure a folder's utility, compare two.
  const skills = program
    .command('skills')
    .description("a run's skills as Agent Skills folders with provenance, and their measured utility");
  skills
    .command('export')
    .description(
      "write a run's skills as a folder any Agent Skills client loads (<to>/<name>/SKILL.md, provenance in metadata) and the bank's manifest (<to>/bank.jsonl: every version, its parent, reward and utility)",
    )
    .argument('<run-dir>', 'the run directory')
    .requiredOption('--to <dir>', 'the folder to write')
    .option(
      '--generation <which>',
      'final (default), best (by measured reward), or a generation number',
      'final',
    )
    .option(
      '--measure',
      "then measure each exported skill's utility on the run's config's tasks, as `skills test` does (into metadata and bank.jsonl)",
    )
    .option('--split <name>', "with --measure: the split (default: the config's tasks)")
    .option('--limit <n>', 'with --measure: tasks of the split')
    .option('--episodes <n>', 'with --measure: episodes per task and condition', '1')
    .option('--json', 'print the result as JSON')
    .action(
      withErrors(async (dir: string, opts: ExportOptions) => {
        const which = opts.generation;
        const generation: SkillSelection =
          which === 'best' || which === 'final' ? which : /^\d+$/.test(which) ? Number(which) : Number.NaN;
        if (Number.isNaN(generation)) {
          throw new InvalidArgumentError('--generation', `expected final, best or a number, got "${which}"`);
        }
        const result = exportSkills(resolve(dir), { to: opts.to, generation });
        if (opts.measure) {
          const measured = await testSkills(result.to, runConfigFile(resolve(dir)), measureOptions(opts));
          for (const row of result.exported) {
            const m = measured.skills.find((x) => x.name === row.folder);
            if (m?.utility) row.utility = m.utility;
          }
        }
        if (opts.json) {
          io.out(
            JSON.stringify({
              ok: true,
              to: result.to,
              exported: result.exported,
              versions: result.bank.length,
            }),
          );
          return;
        }
        for (const row of result.exported) {
          const reward = row.reward
            ? ` reward ${row.reward.mean.toFixed(3)} over ${row.reward.episodes} episodes`
            : '';
          const utility = row.utility
            ? `, utility ${row.utility.gap.toFixed(3)} [${row.utility.lo.toFixed(3)}, ${row.utility.hi.toFixed(3)}]`
            : '';
          io.out(`${row.folder}/SKILL.md  ${row.hash}${row.task ? ` (${row.task})` : ''}${reward}${utility}`);
        }
        io.out(
          `${result.exported.length} skill(s) in ${result.to}; bank.jsonl lists ${result.bank.length} version(s)`,
        );
      }),
    );
  skills
    .command('test')
    .description(
      "measure each skill of a folder on a config's tasks: with and without it, paired by task, with a 95 % interval; written into its SKILL.md metadata and the folder's bank.jsonl",
    )
    .argument('<dir>', 'an Agent Skills folder (a skill folder, or a folder of them)')
    .requiredOption(
      '--config <file>',
      'the config whose agent and tasks measure it (its health budget applies)',
    )
    .option('--split <name>', "the split to measure on (default: the config's tasks)")
    .option('--limit <n>', 'tasks of the split')
    .option('--episodes <n>', 'episodes per task and condition', '1')
    .option('--json', 'print the result as JSON')
    .action(
      withErrors(
        async (
          dir: string,
          opts: { config: string; split?: string; limit?: string; episodes: string; json?: boolean },
        ) => {
          const result = await testSkills(dir, opts.config, measureOptions(opts));
          if (opts.json) {
            io.out(JSON.stringify({ ok: true, ...result }));
            return;
          }
          for (const r of result.skills) {
            const u = r.utility;
            io.out(
              u
                ? `${r.name}: with ${u.withSkill.toFixed(3)}, without ${u.withoutSkill.toFixed(3)}, utility ${u.gap.toFixed(3)} [${u.lo.toFixed(3)}, ${u.hi.toFixed(3)}] (${u.pairs} tasks, ${u.episodes} episodes${u.errored ? `, ${u.errored} errored` : ''})`
                : `${r.name}: not measured (no task of ${r.families.join(', ') || 'its families'} scored in both conditions)`,
            );
          }
        },
      ),
    );
  skills
    .command('diff')
    .description(
      'two skills compared: their text as a unified diff, and their provenance (hash, parent, run, utility)',
    )
    .argument('<a>', 'a skill folder or SKILL.md')
    .argument('<b>', 'a skill folder or SKILL.md')
    .option('--json', 'print the result as JSON')
    .action(
      withErrors(async (a: string, b: string, opts: { json?: boolean }) => {
        const d = diffSkills(a, b);
        if (opts.json) {
          io.out(JSON.stringify({ ok: true, ...d }));
          return;
        }
        io.out(d.same ? 'same text' : d.text.trimEnd());
        for (const [field, x, y] of d.provenance) io.out(`${field}: ${x ?? '—'} → ${y ?? '—'}`);
      }),
    );
}
