import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError } from '@skillrl/core';

export interface RunTemplate {
  name: string;
  describe: string;
  /** Packages the config's components come from (all in the batteries-included `skillrl`). */
  needs: string[];
  /** Data files written beside the config (template path → path relative to the config's folder). */
  data?: Record<string, string>;
}

const GAIA_DATA = {
  'gaia-data/validation/metadata.jsonl': 'data/validation/metadata.jsonl',
  'gaia-data/validation/sales.csv': 'data/validation/sales.csv',
};

/** The run configs shipped in the package (`templates/`, copied from the repository's examples). */
export const RUN_TEMPLATES: readonly RunTemplate[] = [
  {
    name: 'household-skillc',
    describe: 'SKILLC offline on household: the skill-reading tfjs policy, paired rollouts, 20 steps',
    needs: ['@skillrl/task-household', '@skillrl/policy-tfjs'],
  },
  {
    name: 'household-skill-r1',
    describe: 'Skill-R1 offline on household: the trainable step editor, frozen tfjs agent, G = 8',
    needs: ['@skillrl/task-household', '@skillrl/policy-tfjs', '@skillrl/skill-generator'],
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
    data: GAIA_DATA,
  },
  {
    name: 'gaia-skill-r1',
    describe: 'Skill-R1 on GAIA with an LLM task model and the LLM skill editor (OpenAI-compatible)',
    needs: ['@skillrl/task-qa', '@skillrl/skill-generator'],
    data: GAIA_DATA,
  },
  {
    name: 'evolve-household',
    describe: 'a small Skill-R1 run on household (step editor, tfjs agent)',
    needs: ['@skillrl/task-household', '@skillrl/policy-tfjs', '@skillrl/skill-generator'],
  },
  {
    name: 'evolve-llm',
    describe: 'Skill-R1 on household with an LLM task model and LLM editor (OpenAI-compatible)',
    needs: ['@skillrl/task-household', '@skillrl/skill-generator'],
  },
  {
    name: 'internalize-household',
    describe: 'a small SKILLC run on household (tfjs policy and trainer)',
    needs: ['@skillrl/task-household', '@skillrl/policy-tfjs'],
  },
];

/** The package's `templates/` folder, from the bundle (dist/) or the sources (src/init/). */
function templatesDir(): string {
  const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
  let dir = dirname(here);
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'templates', 'household-skillc.yaml'))) return join(dir, 'templates');
    dir = dirname(dir);
  }
  throw new InvalidArgumentError(
    'init run',
    `the templates folder of @skillrl/orchestrator is missing (from ${here})`,
  );
}

export function findTemplate(name: string): RunTemplate {
  const template = RUN_TEMPLATES.find((t) => t.name === name);
  if (!template) {
    throw new InvalidArgumentError(
      '--template',
      `unknown template "${name}"; the templates are ${RUN_TEMPLATES.map((t) => t.name).join(', ')}`,
    );
  }
  return template;
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
    throw new InvalidArgumentError('init run', `${target} exists; choose another file (or pass --force)`);
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
