// Copies the shipped run configs (`create-skillrl run --template <name>`, `skillrl init run`) from the examples
// they come from, so the published package carries them. A test fails when a template and its source drift
// apart. The demo's templates (demo-*.yaml) have no other copy: they are edited here.
//   node scripts/sync-templates.mjs
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const here = join(import.meta.dirname, '..');
export const TEMPLATE_SOURCES = {
  'household-skillc': '../../examples/household-skillc/skillc.yaml',
  'household-skill-r1': '../../examples/household-skill-r1/skill-r1.yaml',
  shop: '../../examples/shop/shop.yaml',
  'gaia-openai': '../../examples/gaia-openai/gaia.yaml',
  'gaia-skill-r1': '../../examples/gaia-openai/gaia-skill-r1.yaml',
  'evolve-household': '../orchestrator/examples/evolve-household.yaml',
  'evolve-llm': '../orchestrator/examples/evolve-llm.yaml',
  'internalize-household': '../orchestrator/examples/internalize-household.yaml',
};
export const TEMPLATE_DATA = {
  'gaia-data/validation/metadata.jsonl': '../../examples/gaia-openai/data/validation/metadata.jsonl',
  'gaia-data/validation/sales.csv': '../../examples/gaia-openai/data/validation/sales.csv',
};

/** A shipped config's comments name the file as the user has it, not the repository's path to it. */
export function asTemplate(text) {
  return text.replace(/skillrl run examples\/(?:[\w-]+\/)?([\w-]+\.yaml)/g, 'skillrl run $1');
}

if (process.argv[1] === import.meta.filename) {
  for (const [name, source] of Object.entries(TEMPLATE_SOURCES)) {
    writeFileSync(
      join(here, 'templates', `${name}.yaml`),
      asTemplate(readFileSync(join(here, source), 'utf8')),
    );
  }
  for (const [target, source] of Object.entries(TEMPLATE_DATA)) {
    mkdirSync(dirname(join(here, 'templates', target)), { recursive: true });
    copyFileSync(join(here, source), join(here, 'templates', target));
  }
  console.log(
    `templates: ${Object.keys(TEMPLATE_SOURCES).length} configs, ${Object.keys(TEMPLATE_DATA).length} data files`,
  );
}
