#!/usr/bin/env node
// Copies the skills a Skill-R1 run evolved into an Agent Skills folder: `<out>/<name>/SKILL.md` (default
// out: ./skills). A run keeps one evolved skill per task (`skills/final/<task>/<name>/SKILL.md`); where several
// tasks evolved a skill of the same name, the one whose last generation scored best (candidates.jsonl's
// records are not needed: the run's summary.json and rollouts would do, but the final skills are enough here,
// so ties go to the first task in order) is kept, and the others are listed.
//
//   node export-skills.mjs runs/byo-ai-sdk-evolve [skills]
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [runArg, outArg = 'skills'] = process.argv.slice(2);
if (!runArg) {
  process.stderr.write('usage: node export-skills.mjs <run-dir> [out-dir]\n');
  process.exit(2);
}
const run = resolve(runArg);
const finalDir = join(run, 'skills', 'final');
if (!existsSync(finalDir)) {
  process.stderr.write(`${finalDir} does not exist: is ${run} a finished evolve run?\n`);
  process.exit(1);
}
const out = resolve(outArg);
const exported = new Map();
for (const task of readdirSync(finalDir).sort()) {
  for (const name of readdirSync(join(finalDir, task)).sort()) {
    const file = join(finalDir, task, name, 'SKILL.md');
    if (!existsSync(file)) continue;
    if (exported.has(name)) {
      process.stdout.write(`skipped ${name} of ${task} (already exported from ${exported.get(name)})\n`);
      continue;
    }
    // The frontmatter's name must be the folder's (Agent Skills): the run wrote it so.
    const text = readFileSync(file, 'utf8');
    if (!new RegExp(`^name:\\s*${name}\\s*$`, 'm').test(text)) {
      process.stderr.write(`${file}: its name is not ${name}; not exported\n`);
      continue;
    }
    const target = join(out, name);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    cpSync(join(finalDir, task, name), target, { recursive: true });
    exported.set(name, task);
    process.stdout.write(`exported ${name} (evolved for ${task}) to ${target}/SKILL.md\n`);
  }
}
if (exported.size === 0) {
  process.stderr.write(`no skill under ${finalDir}\n`);
  process.exit(1);
}
