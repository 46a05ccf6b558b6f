import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SkillFormatError } from '../errors/skill-format-error.js';
import { formatSkill } from './format-skill.js';
import { parseSkill } from './parse-skill.js';
import { readSkillFolder } from './read-skill-folder.js';
import { validateSkillFolder } from './validate-skill-folder.js';

/**
 * Skills written the way published ones are (Claude Code's and Anthropic's skills repository's style):
 * `allowed-tools: Read, Grep, Glob`, `disable-model-invocation: true`, `argument-hint`, `version: 1.0`, a
 * `references/` file. Each breaks the spec strictly (fields outside it) and imports leniently, with warnings.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../test-fixtures/published-skills');
const NAMES = readdirSync(ROOT).sort();

describe('published-style skills (test-fixtures/published-skills)', () => {
  it('has the four fixtures', () => {
    expect(NAMES).toEqual(['code-review', 'commit-message', 'pdf-form-filler', 'release-notes']);
  });

  it.each(NAMES)('%s fails strict validation on fields outside the spec, and only on those', (name) => {
    const strict = validateSkillFolder(join(ROOT, name));
    expect(strict.ok).toBe(false);
    expect(new Set(strict.problems.map((p) => p.rule))).toEqual(new Set(['unknown-field']));
    expect(() => parseSkill(readFileSync(join(ROOT, name, 'SKILL.md'), 'utf8'))).toThrow(SkillFormatError);
  });

  it.each(NAMES)(
    '%s imports with lenient: true, with a warning per client field and its files checked',
    (name) => {
      const lenient = validateSkillFolder(join(ROOT, name), { lenient: true });
      expect(lenient.problems).toEqual([]);
      expect(lenient.ok).toBe(true);
      const fields = Object.keys(lenient.skill?.extraFields ?? {});
      expect(fields.length).toBeGreaterThan(0);
      expect(lenient.warningDetails.filter((w) => w.rule === 'unknown-field').map((w) => w.field)).toEqual(
        fields,
      );
      // Every referenced file is there and one level deep; the layout is the spec's.
      expect(
        lenient.warningDetails.filter((w) => w.rule.startsWith('reference') || w.rule === 'layout'),
      ).toEqual([]);
    },
  );

  it('reads what each client field and allowed-tools form says, as strings', () => {
    const warnings: string[] = [];
    const skills = readSkillFolder(ROOT, 'path', { lenient: true, onWarning: (m) => warnings.push(m) });
    const byName = Object.fromEntries(skills.map((s) => [s.name, s]));
    expect(byName['code-review']).toMatchObject({
      allowedTools: ['Read', 'Grep', 'Glob', 'Bash(git diff:*)', 'Bash(gh pr view:*)'],
      extraFields: { 'argument-hint': '[pr-number]', 'disable-model-invocation': 'true' },
    });
    expect(byName['pdf-form-filler']).toMatchObject({
      license: 'Proprietary. LICENSE.txt has complete terms',
      allowedTools: ['Read', 'Write', 'Bash(python:*)'],
      extraFields: { version: '1.0' },
    });
    // `argument-hint: [type]` unquoted is a YAML list; kept as one.
    expect(byName['commit-message']).toMatchObject({
      allowedTools: ['Bash(git diff --staged:*)', 'Bash(git log:*)'],
      extraFields: { 'user-invocable': 'true', model: 'haiku', 'argument-hint': ['type'] },
    });
    expect(byName['release-notes']).toMatchObject({
      metadata: { author: 'example-org', category: 'release' },
      allowedTools: ['Read', 'Bash(git log:*)', 'Bash(gh pr list:*)'],
      extraFields: { version: '2.1.0' },
    });
    expect(warnings.filter((w) => w.startsWith('[allowed-tools-format]'))).toHaveLength(3);
    expect(warnings.filter((w) => w.startsWith('[unknown-field]'))).toHaveLength(7);
    expect(() => readSkillFolder(ROOT)).toThrow(/unknown-field/);
  });

  it('round-trips leniently: the client fields are written back as the client wrote them', () => {
    for (const skill of readSkillFolder(ROOT, 'path', { lenient: true })) {
      const text = formatSkill(skill);
      expect(parseSkill(text, { lenient: true })).toEqual(skill);
      expect(formatSkill(parseSkill(text, { lenient: true }))).toBe(text);
    }
    const [codeReview] = readSkillFolder(join(ROOT, 'code-review'), 'path', { lenient: true });
    const text = formatSkill(codeReview!);
    // Plain scalars stay plain, so Claude Code still reads a boolean; allowed-tools in the spec's form.
    expect(text).toContain('\ndisable-model-invocation: true\n');
    expect(text).toContain('\nargument-hint: "[pr-number]"\n');
    expect(text).toContain('\nallowed-tools: Read Grep Glob Bash(git diff:*) Bash(gh pr view:*)\n');
  });
});
