import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { asTemplate, TEMPLATE_DATA, TEMPLATE_SOURCES } from '../scripts/sync-templates.mjs';
import { runNextSteps } from './next-steps.js';
import { findTemplate, RUN_TEMPLATES, readRunTemplate, templatePath, templatesDir } from './run-templates.js';

const here = resolve(__dirname, '..');

describe('the shipped run configs', () => {
  it('every listed template has its file and every file in templates/ is listed', () => {
    const files = readdirSync(templatesDir())
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => f.replace(/\.yaml$/, ''))
      .sort();
    expect(files).toEqual(RUN_TEMPLATES.map((t) => t.name).sort());
    for (const t of RUN_TEMPLATES)
      expect(templatePath(t.name)).toBe(join(here, 'templates', `${t.name}.yaml`));
  });

  it('every template copied from an example is that example, as scripts/sync-templates.mjs copies it', () => {
    for (const [name, source] of Object.entries(TEMPLATE_SOURCES)) {
      expect(readRunTemplate(name), `${name}: run node scripts/sync-templates.mjs`).toBe(
        asTemplate(readFileSync(join(here, source), 'utf8')),
      );
    }
    for (const [target, source] of Object.entries(TEMPLATE_DATA)) {
      expect(readFileSync(join(here, 'templates', target), 'utf8')).toBe(
        readFileSync(join(here, source), 'utf8'),
      );
    }
  });

  it("the demo's control is its SKILLC run as GRPO: only the name and the variant differ", () => {
    const skillc = parse(readRunTemplate('demo-skillc'));
    const control = parse(readRunTemplate('demo-grpo-control'));
    expect(control).toEqual({
      ...skillc,
      name: 'demo-control',
      internalize: { ...skillc.internalize, variant: 'grpo' },
    });
    expect(skillc.internalize.variant).toBe('skillc');
    expect(parse(readRunTemplate('demo-skill-r1')).method).toBe('evolve');
  });

  it('a template names the packages its components come from; the next steps install them with the CLI', () => {
    for (const t of RUN_TEMPLATES) {
      const config = parse(readRunTemplate(t.name));
      const text = JSON.stringify(config);
      if (/"adapter":"household"/.test(text)) expect(t.needs, t.name).toContain('@skillrl/task-household');
      if (/"name":"shop"/.test(text)) expect(t.needs, t.name).toContain('@skillrl/task-shop');
      if (/"name":"gaia"/.test(text)) expect(t.needs, t.name).toContain('@skillrl/task-qa');
      if (/skill-reading|"tfjs"/.test(text)) expect(t.needs, t.name).toContain('@skillrl/policy-tfjs');
      if (config.method === 'evolve') expect(t.needs, t.name).toContain('@skillrl/skill-generator');
      if (/apiKeyEnv/.test(text)) expect(t.env, t.name).toEqual(['OPENAI_API_KEY']);
    }
    expect(runNextSteps(findTemplate('household-skillc'), 'skillc.yaml')).toBe(
      'npm install @skillrl/cli @skillrl/task-household @skillrl/policy-tfjs && npx skillrl check skillc.yaml && npx skillrl run skillc.yaml',
    );
  });

  it('an unknown name is a ScaffoldError naming --template and the templates', () => {
    expect(() => findTemplate('nope')).toThrow(
      /^Invalid --template: unknown template "nope"; the templates are household-skillc, household-skill-r1, shop, /,
    );
  });
});
