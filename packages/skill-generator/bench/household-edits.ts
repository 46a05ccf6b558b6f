/**
 * What the frozen skill-reading agent (`@skillrl/policy-tfjs`, untrained) does with edited household skills.
 * Run: `pnpm --filter @skillrl/skill-generator bench:household` (EPISODES per skill, default 24, over the
 * first 6 train tasks of each family, `household.load({ split: 'train', limit: 60, seed: 5 })`, episode
 * seeds 500 + e).
 *
 * 1. Phrasing: success under each family's hand-written skill (s0), under its whole step vocabulary in plan
 *    order, and under the plan without the phrases that name a conditional or optional action.
 * 2. The single-edit neighbourhood of s0: every delete, swap, insert and replace of one line, as the step
 *    editor can make them; how many beat s0 by more than 0.1, and the best three.
 * With RUN_DIRS (comma-separated evolve run directories), it instead re-measures each generation's carried
 * skill (skills/<g>/<task>/) on its task with EPISODES episodes: the loop's own two-episode scores flatter them.
 * With EDIT_RATE_DIRS (evolve runs in `mode: grpo` with the step editor), it loads the editor saved at each
 * checkpoint and reports how often it leaves its tasks' s0 unchanged and its mean edits per proposal
 * (64 proposals per task, seed 123): what GRPO changed in the editor.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSkill, type Skill, type Task } from '@skillrl/core';
import { createSkillReadingAgent, vocabularyFromAdapter } from '@skillrl/policy-tfjs';
import { runEpisode } from '@skillrl/rollout';
import household from '@skillrl/task-household';
import { initBackend } from '@skillrl/tensor-ops';
import { loadStepEditor, readNumberedSteps, renderStepSkill } from '../src/entries/step-editor.js';

const EPISODES = Number(process.env.EPISODES ?? 24);
const agent = createSkillReadingAgent({ vocabulary: await vocabularyFromAdapter(household), seed: 1 });

async function success(tasks: readonly Task[], skill: Skill, episodes = EPISODES): Promise<number> {
  let sum = 0;
  let n = 0;
  for (let e = 0; e < Math.ceil(episodes / tasks.length); e++) {
    for (const task of tasks) {
      const env = await household.createEnvironment(task);
      const t = await runEpisode({
        agent,
        env,
        task,
        skill,
        verifier: household.verifier(task),
        seed: 500 + e,
      });
      sum += t.reward;
      n += 1;
    }
  }
  return sum / n;
}

function ownSkill(family: string): Skill {
  const matching = household.skills().filter((s) => s.families?.includes(family));
  matching.sort((a, b) => (a.families?.length ?? 0) - (b.families?.length ?? 0));
  return matching[0] as Skill;
}

async function carried(dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { seed: number };
    const tasks = household.load({ split: 'train', limit: 6, seed: config.seed }) as Task[];
    const generations = readdirSync(join(dir, 'skills'))
      .filter((g) => /^\d+$/.test(g))
      .map(Number)
      .sort((a, b) => a - b);
    const row: string[] = [];
    for (const g of generations) {
      let sum = 0;
      let n = 0;
      for (const slug of readdirSync(join(dir, 'skills', String(g)))) {
        const task = tasks.find((t) => t.id.replace(/[^a-zA-Z0-9]+/g, '-') === slug);
        if (!task) throw new Error(`${dir}: no task for ${slug}`);
        const at = join(dir, 'skills', String(g), slug);
        const name = readdirSync(at)[0] as string;
        const skill = parseSkill(readFileSync(join(at, name, 'SKILL.md'), 'utf8'));
        sum += await success([task], skill);
        n += 1;
      }
      row.push((sum / n).toFixed(3));
    }
    console.log(`${dir}: carried skill per generation, ${EPISODES} episodes per task: ${row.join(' ')}`);
  }
}

async function editRates(dirs: string[]): Promise<void> {
  await initBackend({ prefer: 'wasm', env: {} });
  for (const dir of dirs) {
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { seed: number };
    const tasks = household.load({ split: 'train', limit: 6, seed: config.seed }) as Task[];
    const states = readdirSync(join(dir, 'checkpoints'))
      .filter((d) => d.startsWith('state-'))
      .sort();
    const row: string[] = [];
    for (const state of states) {
      const editor = await loadStepEditor(join(dir, 'checkpoints', state, 'generator'));
      let unchanged = 0;
      let edits = 0;
      let n = 0;
      for (const task of tasks) {
        const context = { task, generation: 99, history: [], currentSkill: ownSkill(task.family), seed: 123 };
        for (const c of await editor.propose(context, 64)) {
          n += 1;
          edits += c.info.stepEditor.edits;
          if (c.info.stepEditor.edits === 0) unchanged += 1;
        }
      }
      row.push(
        `${editor.updates} updates: unchanged ${(unchanged / n).toFixed(2)}, edits ${(edits / n).toFixed(2)}`,
      );
      editor.dispose();
    }
    console.log(`${dir}:\n  ${row.join('\n  ')}`);
  }
}

async function main(): Promise<void> {
  if (process.env.RUN_DIRS) return carried(process.env.RUN_DIRS.split(','));
  if (process.env.EDIT_RATE_DIRS) return editRates(process.env.EDIT_RATE_DIRS.split(','));
  const all = household.load({ split: 'train', limit: 60, seed: 5 }) as Task[];
  const vocabulary = household.stepVocabulary();
  const optional = /closed|look at what|usually/;
  console.log(`phrasing (success over ${EPISODES} episodes per skill)`);
  console.log('| family | s0 | whole plan | plan without conditional / optional phrases |');
  console.log('| --- | --- | --- | --- |');
  const neighbourhood: string[] = [];
  for (const [family, phrases] of Object.entries(vocabulary)) {
    const tasks = all.filter((t) => t.family === family).slice(0, 6);
    const s0 = ownSkill(family);
    const base = await success(tasks, s0);
    const plan = await success(tasks, renderStepSkill(family, phrases));
    const short = await success(
      tasks,
      renderStepSkill(
        family,
        phrases.filter((p) => !optional.test(p)),
      ),
    );
    console.log(`| ${family} | ${base.toFixed(2)} | ${plan.toFixed(2)} | ${short.toFixed(2)} |`);

    const lines = readNumberedSteps(s0.body);
    const edits: [string, string[]][] = [];
    for (let i = 0; i <= lines.length; i++) {
      if (i < lines.length) edits.push([`delete ${i + 1}`, lines.filter((_, j) => j !== i)]);
      if (i + 1 < lines.length) {
        edits.push([
          `swap ${i + 1}`,
          [...lines.slice(0, i), lines[i + 1], lines[i], ...lines.slice(i + 2)] as string[],
        ]);
      }
      for (const p of phrases) {
        edits.push([`insert "${p}" at ${i + 1}`, [...lines.slice(0, i), p, ...lines.slice(i)]]);
        if (i < lines.length)
          edits.push([`replace ${i + 1} by "${p}"`, [...lines.slice(0, i), p, ...lines.slice(i + 1)]]);
      }
    }
    const scored: [string, number][] = [];
    for (const [name, steps] of edits)
      scored.push([name, await success(tasks, renderStepSkill(family, steps))]);
    scored.sort((a, b) => b[1] - a[1]);
    const mean = scored.reduce((s, [, r]) => s + r, 0) / scored.length;
    const better = scored.filter(([, r]) => r > base + 0.1).length;
    const top = scored.slice(0, 3).map(([n, r]) => `${n} ${r.toFixed(2)}`);
    neighbourhood.push(
      `| ${family} | ${base.toFixed(2)} | ${scored.length} | ${mean.toFixed(2)} | ${better} | ${top.join('; ')} |`,
    );
  }
  console.log('\nsingle edits of s0');
  console.log('| family | s0 | edits | mean success | better by > 0.1 | best three |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const row of neighbourhood) console.log(row);
}

await main();
