import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScaffoldError } from './scaffold-error.js';

export interface RunTemplate {
  name: string;
  describe: string;
  /** Packages the config's components come from (all in the batteries-included `skillrl`). */
  needs: string[];
  /** Environment variables the run reads (an API key), named in the printed next steps. */
  env?: string[];
  /** Data files written beside the config (template path → path relative to the config's folder). */
  data?: Record<string, string>;
}

const GAIA_DATA = {
  'gaia-data/validation/metadata.jsonl': 'data/validation/metadata.jsonl',
  'gaia-data/validation/sales.csv': 'data/validation/sales.csv',
};

const OFFLINE_SKILLC = ['@skillrl/task-household', '@skillrl/policy-tfjs'];
const OFFLINE_SKILL_R1 = ['@skillrl/task-household', '@skillrl/policy-tfjs', '@skillrl/skill-generator'];

/**
 * The run configs shipped in the package (`templates/`): copies of the repository's examples
 * (`scripts/sync-templates.mjs`), and the configs `skillrl demo` runs (`demo-*`, kept here alone).
 */
export const RUN_TEMPLATES: readonly RunTemplate[] = [
  {
    name: 'household-skillc',
    describe: 'SKILLC offline on household: the skill-reading tfjs policy, paired rollouts, 360 steps',
    needs: OFFLINE_SKILLC,
  },
  {
    name: 'household-skill-r1',
    describe: 'Skill-R1 offline on household: the trainable step editor, frozen tfjs agent, G = 8',
    needs: OFFLINE_SKILL_R1,
  },
  {
    name: 'shop',
    describe: 'Skill-R1 offline on WebShop-like shopping with the step editor',
    needs: ['@skillrl/task-shop', '@skillrl/policy-tfjs', '@skillrl/skill-generator'],
  },
  {
    name: 'gaia-openai',
    describe: 'GAIA questions over an OpenAI-compatible endpoint (six sample questions written beside it)',
    // Every evolve run goes through Skill-R1's generation step (its tfjs-free subpath).
    needs: ['@skillrl/task-qa', '@skillrl/skill-generator'],
    env: ['OPENAI_API_KEY'],
    data: GAIA_DATA,
  },
  {
    name: 'gaia-skill-r1',
    describe: 'Skill-R1 on GAIA with an LLM task model and the LLM skill editor (OpenAI-compatible)',
    needs: ['@skillrl/task-qa', '@skillrl/skill-generator'],
    env: ['OPENAI_API_KEY'],
    data: GAIA_DATA,
  },
  {
    name: 'evolve-household',
    describe: 'a small Skill-R1 run on household (step editor, tfjs agent)',
    needs: OFFLINE_SKILL_R1,
  },
  {
    name: 'evolve-llm',
    describe: 'Skill-R1 on household with an LLM task model and LLM editor (OpenAI-compatible)',
    needs: ['@skillrl/task-household', '@skillrl/skill-generator'],
    env: ['OPENAI_API_KEY'],
  },
  {
    name: 'internalize-household',
    describe: 'a small SKILLC run on household (tfjs policy and trainer)',
    needs: OFFLINE_SKILLC,
  },
  {
    name: 'demo-skillc',
    describe: "skillrl demo's SKILLC run: household, skill-reading tfjs policy, 360 steps × 8 tasks × 8",
    needs: OFFLINE_SKILLC,
  },
  {
    name: 'demo-grpo-control',
    describe: "skillrl demo's control: demo-skillc as plain GRPO without skills (same tasks, budget, seed)",
    needs: OFFLINE_SKILLC,
  },
  {
    name: 'demo-skill-r1',
    describe:
      "skillrl demo's Skill-R1 run: household, frozen tfjs agent, the step editor in GRPO mode, G = 8",
    needs: OFFLINE_SKILL_R1,
  },
];

/** The package's `templates/` folder, from the bundle (dist/) or the sources (src/). */
export function templatesDir(): string {
  const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
  let dir = dirname(here);
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'templates', 'household-skillc.yaml'))) return join(dir, 'templates');
    dir = dirname(dir);
  }
  throw new ScaffoldError(
    'templates',
    `the templates folder of create-skillrl is missing (looked above ${here})`,
    'reinstall create-skillrl',
  );
}

/** The shipped template of that name; a `ScaffoldError` listing the names otherwise. */
export function findTemplate(name: string): RunTemplate {
  const template = RUN_TEMPLATES.find((t) => t.name === name);
  if (!template) {
    throw new ScaffoldError(
      '--template',
      `unknown template "${name}"`,
      `the templates are ${RUN_TEMPLATES.map((t) => t.name).join(', ')} (--list describes them)`,
    );
  }
  return template;
}

/** The path of a shipped config (`templates/<name>.yaml`), e.g. for `loadConfig`. */
export function templatePath(name: string): string {
  return join(templatesDir(), `${findTemplate(name).name}.yaml`);
}

/** The text of a shipped config, as `writeRunTemplate` writes it. */
export function readRunTemplate(name: string): string {
  return readFileSync(templatePath(name), 'utf8');
}

/** Writes a shipped config to `file` (and its data files beside it); returns every path written. */
export function writeRunTemplate(
  file: string,
  name: string,
  force = false,
): { template: RunTemplate; written: string[] } {
  const template = findTemplate(name);
  const target = resolve(file);
  if (existsSync(target) && !force) {
    throw new ScaffoldError('<file>', `${target} exists`, 'choose another file (or pass --force)');
  }
  const source = templatesDir();
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, readFileSync(join(source, `${name}.yaml`), 'utf8'));
  const written = [target];
  for (const [from, to] of Object.entries(template.data ?? {})) {
    const out = join(dirname(target), to);
    if (existsSync(out) && !force) continue;
    mkdirSync(dirname(out), { recursive: true });
    copyFileSync(join(source, from), out);
    written.push(out);
  }
  return { template, written };
}
