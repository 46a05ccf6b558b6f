import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Skill } from '../contracts/skill.js';
import { SkillFormatError, type SkillRule } from '../errors/skill-format-error.js';
import { formatSkill, skillHash } from './format-skill.js';
import { parseSkill } from './parse-skill.js';
import { validateSkill } from './validate-skill.js';

const heat: Skill = {
  name: 'heat-then-place',
  description: 'Heat an object with the microwave, then put it in the target receptacle. Use for heat tasks.',
  body: '\n# Heat then place\n\n1. Find the object.\n2. Heat it with microwave 1.\n',
  families: ['pick_heat_then_place_in_recep'],
  license: 'MIT',
};

const rulesOf = (fn: () => unknown): SkillRule[] => {
  try {
    fn();
  } catch (e) {
    if (SkillFormatError.isInstance(e)) return e.problems.map((p) => p.rule);
    throw e;
  }
  throw new Error('expected a SkillFormatError');
};

const frontmatter = (lines: string) => `---\n${lines}\n---\nbody\n`;

describe('SKILL.md', () => {
  it('formats with frontmatter first and the body byte for byte', () => {
    const text = formatSkill(heat);
    expect(text).toBe(
      [
        '---',
        'name: heat-then-place',
        'description: Heat an object with the microwave, then put it in the target receptacle. Use for heat tasks.',
        'license: MIT',
        'metadata:',
        '  skillrl.families: pick_heat_then_place_in_recep',
        '---',
        '',
        '# Heat then place',
        '',
        '1. Find the object.',
        '2. Heat it with microwave 1.',
        '',
      ].join('\n'),
    );
    expect(parseSkill(text)).toEqual(heat);
    expect(formatSkill(parseSkill(text))).toBe(text);
  });

  it('parses a hand-written file with every optional field', () => {
    const text = [
      '---',
      'name: pdf-tools',
      'description: "Extract text: tables and forms from PDFs."',
      'license: Apache-2.0',
      'compatibility: Requires poppler',
      'allowed-tools: Bash(pdftotext:*) Read',
      'metadata:',
      '  author: example-org',
      '  version: "1.0"',
      '---',
      '# PDF',
      '',
    ].join('\n');
    const skill = parseSkill(text);
    expect(skill).toEqual({
      name: 'pdf-tools',
      description: 'Extract text: tables and forms from PDFs.',
      license: 'Apache-2.0',
      compatibility: 'Requires poppler',
      allowedTools: ['Bash(pdftotext:*)', 'Read'],
      metadata: { author: 'example-org', version: '1.0' },
      body: '# PDF\n',
    });
    expect(formatSkill(skill)).toBe(text);
  });

  it('round-trips any valid skill (property)', () => {
    const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);
    const name = fc
      .array(word, { minLength: 1, maxLength: 4 })
      .map((ws) => ws.join('-').slice(0, 64).replace(/-+$/, ''));
    const text = fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim().length > 0);
    const token = fc.stringMatching(/^[A-Za-z0-9_.:*]{1,12}$/);
    // A tool may carry parenthesised arguments, spaces and commas included (`Bash(git add:*)`); its
    // parentheses balance, or the space-separated string could not be split back.
    const tool = fc
      .tuple(token, fc.option(fc.stringMatching(/^[A-Za-z0-9_.:*, -]{0,12}$/)))
      .map(([t, args]) => (args === null ? t : `${t}(${args})`));
    const skill = fc.record(
      {
        name,
        description: text,
        body: fc.string({ maxLength: 400 }),
        families: fc.array(token, { maxLength: 4 }),
        license: fc.string({ maxLength: 30 }),
        compatibility: fc.string({ minLength: 1, maxLength: 100 }),
        metadata: fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_-]{0,10}$/), fc.string({ maxLength: 40 }), {
          minKeys: 1,
          maxKeys: 4,
        }),
        allowedTools: fc.array(tool, { maxLength: 4 }),
      },
      { requiredKeys: ['name', 'description', 'body'] },
    );
    fc.assert(
      fc.property(skill, (s) => {
        const out = formatSkill(s);
        expect(parseSkill(out)).toEqual(s);
        expect(formatSkill(parseSkill(out))).toBe(out);
      }),
      { numRuns: 300 },
    );
  });

  it('rejects each broken name rule with its own rule id', () => {
    expect(rulesOf(() => parseSkill(frontmatter('description: d')))).toEqual(['name-required']);
    expect(rulesOf(() => parseSkill(frontmatter(`name: ${'a'.repeat(65)}\ndescription: d`)))).toEqual([
      'name-length',
    ]);
    expect(rulesOf(() => parseSkill(frontmatter('name: Heat_Things\ndescription: d')))).toEqual([
      'name-charset',
    ]);
    expect(rulesOf(() => parseSkill(frontmatter('name: -heat\ndescription: d')))).toEqual(['name-hyphens']);
    expect(rulesOf(() => parseSkill(frontmatter('name: heat-\ndescription: d')))).toEqual(['name-hyphens']);
    expect(rulesOf(() => parseSkill(frontmatter('name: heat--it\ndescription: d')))).toEqual([
      'name-hyphens',
    ]);
    // 64 characters exactly is allowed.
    expect(parseSkill(frontmatter(`name: ${'a'.repeat(64)}\ndescription: d`)).name).toHaveLength(64);
  });

  it('rejects missing or overlong descriptions and other field rules', () => {
    expect(rulesOf(() => parseSkill(frontmatter('name: a\ndescription: ""')))).toEqual([
      'description-required',
    ]);
    expect(rulesOf(() => parseSkill(frontmatter(`name: a\ndescription: ${'x'.repeat(1025)}`)))).toEqual([
      'description-length',
    ]);
    expect(parseSkill(frontmatter(`name: a\ndescription: ${'x'.repeat(1024)}`)).description).toHaveLength(
      1024,
    );
    expect(
      rulesOf(() => parseSkill(frontmatter(`name: a\ndescription: d\ncompatibility: ${'c'.repeat(501)}`))),
    ).toEqual(['compatibility-length']);
    // Scalars are strings as written (skills-ref reads YAML with strictyaml): `version: 1.0` is "1.0",
    // `license: 3` is "3". A list or a map is not a string.
    expect(
      rulesOf(() => parseSkill(frontmatter('name: a\ndescription: d\nmetadata:\n  tags: [a, b]'))),
    ).toEqual(['metadata-type']);
    expect(rulesOf(() => parseSkill(frontmatter('name: a\ndescription: d\nlicense: [MIT]')))).toEqual([
      'license-type',
    ]);
    expect(rulesOf(() => parseSkill(frontmatter('name: a\ndescription: d\nversion: 2')))).toEqual([
      'unknown-field',
    ]);
  });

  it('rejects files without frontmatter or with broken YAML', () => {
    expect(rulesOf(() => parseSkill('# no frontmatter\n'))).toEqual(['frontmatter']);
    expect(rulesOf(() => parseSkill('---\nname: a\ndescription: d\n'))).toEqual(['frontmatter']);
    expect(rulesOf(() => parseSkill('---\nname: [a\n---\n'))).toEqual(['yaml']);
    expect(rulesOf(() => parseSkill('---\n- a\n- b\n---\n'))).toEqual(['frontmatter']);
    expect(rulesOf(() => parseSkill('---\nname: a\nname: b\ndescription: d\n---\n'))).toEqual(['yaml']);
  });

  it('reports every problem at once, naming the file', () => {
    let message = '';
    try {
      parseSkill(frontmatter('name: Bad--\ndescription: ""\nauthor: me'), { source: 'skills/bad/SKILL.md' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('Invalid SKILL.md in skills/bad/SKILL.md');
    expect(message).toContain('[unknown-field] author');
    expect(message).toContain('[name-charset] name');
    expect(message).toContain('[name-hyphens] name');
    expect(message).toContain('[description-required] description');
  });

  it('warns, without failing, past 500 body lines', () => {
    const warnings: string[] = [];
    const body = 'step\n'.repeat(600);
    const skill = parseSkill(`---\nname: long\ndescription: d\n---\n${body}`, {
      onWarning: (w) => warnings.push(w),
    });
    expect(skill.body).toBe(body);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('601 lines');
    expect(validateSkill({ name: 'a', description: 'd', body: 'x\n'.repeat(10) }).warnings).toEqual([]);
  });

  it('refuses to format an invalid skill, and hashes content', () => {
    expect(() => formatSkill({ ...heat, name: 'Heat' })).toThrow(SkillFormatError);
    expect(skillHash(heat)).toMatch(/^[0-9a-f]{16}$/);
    expect(skillHash(heat)).toBe(skillHash({ ...heat }));
    expect(skillHash({ ...heat, body: `${heat.body}3. Put it.\n` })).not.toBe(skillHash(heat));
  });
});
