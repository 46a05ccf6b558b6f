import { formatSkill, parseSkill, validateSkill } from '@skillrl/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractSkillText } from './extract-skill-text.js';
import { normalizeSkillName, type RepairResult, repairSkill } from './repair-skill.js';

const defaults = { name: 'heat-then-place', description: 'Heat, then place.', families: ['heat'] };
const fm = (text: string) => ({ text, source: 'fence' as const, bodyOnly: false });
const ok = (result: RepairResult) => {
  if (!result.ok) throw new Error(`rejected: ${result.reason}`);
  return result;
};

describe('normalizeSkillName', () => {
  it('maps names onto the Agent Skills charset', () => {
    expect(normalizeSkillName('Heat_Things Now')).toBe('heat-things-now');
    expect(normalizeSkillName('HeatThenPlace')).toBe('heat-then-place');
    expect(normalizeSkillName('--crème brûlée--')).toBe('creme-brulee');
    expect(normalizeSkillName('pick_heat_then_place_in_recep')).toBe('pick-heat-then-place-in-recep');
    expect(normalizeSkillName('!!!')).toBe('');
    // 70 characters "a-a-…": cut to 64, and the cut must not leave a trailing hyphen.
    expect(normalizeSkillName('a-'.repeat(35))).toBe('a-'.repeat(32).slice(0, 63));
  });

  it('gives a valid name or nothing, whatever the input (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (raw) => {
        const name = normalizeSkillName(raw);
        if (name !== '') expect(validateSkill({ name, description: 'd', body: '' }).ok).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('repairSkill', () => {
  it('leaves a valid skill as parseSkill reads it, with no repairs', () => {
    const text = '---\nname: heat-mug\ndescription: Heat a mug.\nlicense: MIT\n---\n# Heat\n';
    const result = ok(repairSkill(fm(text), { name: 'x', description: 'y' }));
    expect(result.repairs).toEqual([]);
    expect(result.skill).toEqual(parseSkill(text));
    expect(result.familiesFrom).toBe('none');
  });

  it('keeps the families the reply names, else inherits the defaults', () => {
    const own = '---\nname: a\ndescription: d\nmetadata:\n  skillrl.families: cool clean\n---\nbody\n';
    expect(ok(repairSkill(fm(own), defaults))).toMatchObject({
      skill: { families: ['cool', 'clean'] },
      familiesFrom: 'reply',
    });
    const none = '---\nname: a\ndescription: d\n---\nbody\n';
    expect(ok(repairSkill(fm(none), defaults))).toMatchObject({
      skill: { families: ['heat'] },
      familiesFrom: 'defaults',
      repairs: [],
    });
  });

  it('normalises a name outside the charset, and falls back when nothing is left', () => {
    const result = ok(repairSkill(fm('---\nname: Heat_Then Place\ndescription: d\n---\nbody\n'), defaults));
    expect(result.skill.name).toBe('heat-then-place');
    expect(result.repairs).toEqual(['name: "Heat_Then Place" → "heat-then-place"']);
    const empty = ok(repairSkill(fm('---\nname: "???"\ndescription: d\n---\nbody\n'), defaults));
    expect(empty.skill.name).toBe('heat-then-place');
  });

  it('fills a missing description and cuts an overlong one at a word', () => {
    const missing = ok(repairSkill(fm('---\nname: a\n---\nbody\n'), defaults));
    expect(missing.skill.description).toBe('Heat, then place.');
    expect(missing.repairs).toEqual(['description: missing, taken from the defaults']);
    const words = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ');
    const long = ok(repairSkill(fm(`---\nname: a\ndescription: ${words}\n---\nbody\n`), defaults));
    expect(long.skill.description.length).toBeLessThanOrEqual(1024);
    expect(long.skill.description.endsWith('…')).toBe(true);
    // Cut at a space: the text before the ellipsis is whole words of the original.
    expect(words.startsWith(long.skill.description.slice(0, -1))).toBe(true);
    expect(words.charAt(long.skill.description.length - 1)).toBe(' ');
    expect(long.repairs[0]).toMatch(/^description: cut from \d+ to \d+ characters$/);
  });

  it('adds frontmatter from the defaults to a body-only reply', () => {
    const found = extractSkillText('```markdown\n# Heat\n1. Open it.\n```');
    const result = ok(repairSkill(found ?? fm(''), defaults));
    expect(result.skill).toEqual({
      name: 'heat-then-place',
      description: 'Heat, then place.',
      families: ['heat'],
      body: '# Heat\n1. Open it.\n',
    });
    expect(result.repairs).toEqual([
      'frontmatter: missing, name and description taken from `heat-then-place`',
    ]);
  });

  it('quotes a colon-laden description that YAML rejects', () => {
    const text = '---\nname: a\ndescription: Use when: the object must be hot\n---\nbody\n';
    expect(() => parseSkill(text)).toThrow();
    const result = ok(repairSkill(fm(text), defaults));
    expect(result.skill.description).toBe('Use when: the object must be hot');
    expect(result.repairs).toEqual(['frontmatter: quoted values that YAML could not read']);
  });

  it('moves unknown fields under metadata and stringifies metadata values', () => {
    const text = '---\nname: a\ndescription: d\nversion: 2\ntags: [x, y]\nmetadata:\n  rev: 3\n---\nbody\n';
    const result = ok(repairSkill(fm(text), { name: 'x', description: 'y' }));
    expect(result.skill.metadata).toEqual({ rev: '3', version: '2' });
    expect(result.repairs).toEqual([
      'metadata.rev: 3 → "3"',
      'version: not an Agent Skills field, moved under metadata',
      'tags: not an Agent Skills field, dropped',
    ]);
  });

  it('rejects what it cannot repair, with a reason', () => {
    expect(repairSkill(fm('---\nname: [a\n---\nbody\n'), defaults)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not valid YAML/),
    });
    expect(repairSkill(fm('---\nname: a\ndescription: d\n---\n  \n'), defaults)).toEqual({
      ok: false,
      reason: 'the skill has an empty body',
    });
    expect(repairSkill(fm('---\nname: a\ndescription: d\n'), defaults)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/closing `---`/),
    });
    expect(repairSkill(fm('---\n- a\n- b\n---\nbody\n'), defaults)).toMatchObject({
      ok: false,
      reason: 'the frontmatter is not a YAML mapping',
    });
  });

  it('never returns an invalid skill, whatever the reply (property)', () => {
    const line = fc.oneof(
      fc.constantFrom('---', '```markdown', '```', 'name: Heat It', 'description: a: b', 'version: 1', '# T'),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 14 }), (lines) => {
        const found = extractSkillText(lines.join('\n'));
        if (!found) return;
        const result = repairSkill(found, defaults);
        if (!result.ok) return;
        expect(validateSkill(result.skill).ok).toBe(true);
        expect(parseSkill(formatSkill(result.skill))).toEqual(result.skill);
      }),
      { numRuns: 400 },
    );
  });
});
