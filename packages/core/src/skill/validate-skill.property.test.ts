import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Skill } from '../contracts/skill.js';
import { formatSkill } from './format-skill.js';
import { parseSkill } from './parse-skill.js';
import { skillNamesMatch } from './skill-name.js';
import { validateSkill } from './validate-skill.js';

/**
 * Properties of the Agent Skills rules over generated names and frontmatter: names are checked in code points
 * after NFKC (skills-ref `_validate_name`), any Unicode lowercase letter or number is allowed, NFC and NFD
 * spellings are one name, every YAML scalar is read as the string written, and the round trip is exact.
 */

/** Lowercase letters and numbers (`isalnum`, equal to their lowercase), NFKC-stable; the last five are astral. */
const LETTERS = [
  ...'abcdefghijklmnopqrstuvwxyz0123456789',
  ...'àéüñçøßłœαβλως дЖя'.replace(/[ Ж]/g, ''),
  'ա', // Armenian
  'ა', // Georgian (Lo)
  '中',
  '技',
  '한',
  'あ',
  '٣', // ARABIC-INDIC DIGIT THREE (Nd)
  '\u{1E922}', // ADLAM SMALL LETTER ALIF
  '\u{1E923}',
  '\u{10428}', // DESERET SMALL LETTER LONG I
  '\u{104D8}', // OSAGE SMALL LETTER A
  '\u{20000}', // CJK EXTENSION B (Lo)
];
/** Letters whose NFD spelling differs from their NFC one. */
const DECOMPOSABLE = ['é', 'ü', 'ñ', 'ç', 'å', 'ő', 'ș', 'ậ', '한', 'ώ'];
const UPPER = ['A', 'Z', 'É', 'Ω', 'Д', '\u{1E900}' /* ADLAM CAPITAL ALIF */, 'ǅ' /* titlecase */];

const codePoints = (s: string) => [...s].length;
const letter = fc.constantFrom(...LETTERS);
const segment = (char: fc.Arbitrary<string>) =>
  fc.array(char, { minLength: 1, maxLength: 12 }).map((cs) => cs.join(''));
const nameOf = (char: fc.Arbitrary<string>) =>
  fc.array(segment(char), { minLength: 1, maxLength: 8 }).map((ss) => ss.join('-'));
const rules = (skill: Skill, directory?: string) =>
  validateSkill(skill, directory === undefined ? {} : { directory }).problems.map((p) => p.rule);
const named = (name: string): Skill => ({
  name,
  description: 'Does a thing. Use for things.',
  body: 'Go.\n',
});

describe('skill names (property)', () => {
  it('the generators draw lowercase, alphanumeric, NFKC-stable characters, some outside the BMP', () => {
    for (const c of LETTERS) {
      expect(c.normalize('NFKC')).toBe(c);
      expect(c.toLowerCase()).toBe(c);
      expect(c).toMatch(/^[\p{L}\p{N}]$/u);
    }
    expect(LETTERS.filter((c) => c.length === 2)).toHaveLength(5);
  });

  it('a name of Unicode lowercase letters, digits and single hyphens is valid iff it has at most 64 code points', () => {
    fc.assert(
      fc.property(nameOf(letter), (name) => {
        expect(rules(named(name))).toEqual(codePoints(name) <= 64 ? [] : ['name-length']);
      }),
      { numRuns: 500 },
    );
  });

  it('around 64 code points, astral characters count once (not as two UTF-16 units)', () => {
    const around = fc
      .integer({ min: 60, max: 68 })
      .chain((n) => fc.array(letter, { minLength: n, maxLength: n }).map((cs) => cs.join('')));
    fc.assert(
      fc.property(around, (name) => {
        expect(rules(named(name))).toEqual(codePoints(name) <= 64 ? [] : ['name-length']);
      }),
      { numRuns: 300 },
    );
  });

  it('NFC and NFD spellings are the same name: valid alike, counted alike, matching each other as folders', () => {
    const decomposable = fc.constantFrom(...DECOMPOSABLE, ...'abc-');
    const name = fc
      .array(decomposable, { minLength: 1, maxLength: 70 })
      .map((cs) => cs.join('').replace(/-+/g, '-').replace(/^-|-$/g, ''))
      .filter((n) => n.length > 0);
    fc.assert(
      fc.property(name, (n) => {
        const nfc = n.normalize('NFC');
        const nfd = n.normalize('NFD');
        expect(rules(named(nfd))).toEqual(rules(named(nfc)));
        expect(rules(named(nfd))).toEqual(codePoints(nfc) <= 64 ? [] : ['name-length']);
        expect(rules(named(nfc), nfd)).not.toContain('name-directory');
        expect(rules(named(nfd), nfc)).not.toContain('name-directory');
        expect(skillNamesMatch(nfd, nfc) && skillNamesMatch(nfc, nfd)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('any uppercase or titlecase letter makes a name invalid (name-charset)', () => {
    const withUpper = fc.tuple(nameOf(letter), fc.constantFrom(...UPPER), fc.nat()).map(([name, up, at]) => {
      const cs = [...name];
      cs.splice(at % (cs.length + 1), 0, up);
      return cs.join('');
    });
    fc.assert(
      fc.property(withUpper, (name) => {
        expect(rules(named(name))).toContain('name-charset');
      }),
      { numRuns: 300 },
    );
  });
});

/** Plain YAML scalars of every type the core schema would resolve, each read back as the text written. */
const SCALAR = fc.oneof(
  fc.integer().map(String),
  fc.integer({ min: 0 }).map((n) => `0x${n.toString(16)}`),
  fc.integer({ min: 0 }).map((n) => `0o${n.toString(8)}`),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom('1.0', '1e3', '.5', '-2.50', '+12', '.inf', '-.Inf', '.NaN', '6.8523015e+5'),
  fc.constantFrom('true', 'false', 'True', 'FALSE', 'yes', 'no', 'on', 'off', 'y', 'n'),
  fc.constantFrom('null', 'Null', 'NULL', '~'),
  fc.constantFrom('2024-01-01', '2001-12-14t21:59:43.10-05:00', '2002-12-14'),
  fc.stringMatching(/^[a-z][a-z0-9 ]{0,20}[a-z0-9]$/),
);

describe('frontmatter scalars (property)', () => {
  it('every YAML scalar is read as the string written, in every string field and metadata value', () => {
    fc.assert(
      fc.property(SCALAR, SCALAR, SCALAR, SCALAR, (description, license, compatibility, value) => {
        const text = [
          '---',
          'name: scalars',
          `description: ${description}`,
          `license: ${license}`,
          `compatibility: ${compatibility}`,
          `metadata: { value: ${value} }`,
          `version: ${value}`,
          '---',
          'Go.\n',
        ].join('\n');
        const skill = parseSkill(text, { lenient: true });
        expect(skill).toEqual({
          name: 'scalars',
          description,
          license,
          compatibility,
          metadata: { value },
          extraFields: { version: value },
          body: 'Go.\n',
        });
        // Written back quoted where a YAML 1.2 core reader would take them for another type; read back the same.
        const out = formatSkill(skill);
        expect(parseSkill(out, { lenient: true })).toEqual(skill);
        expect(formatSkill(parseSkill(out, { lenient: true }))).toBe(out);
      }),
      { numRuns: 300 },
    );
  });

  it('a name written as a number, a boolean or null is that text', () => {
    const nameLike = SCALAR.filter((s) => /^[\p{Ll}\p{N}]+$/u.test(s));
    fc.assert(
      fc.property(nameLike, (name) => {
        expect(parseSkill(`---\nname: ${name}\ndescription: d\n---\n`).name).toBe(name);
      }),
      { numRuns: 200 },
    );
  });
});

describe('round trip (property)', () => {
  const tool = fc
    .tuple(
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.:*]{0,10}$/),
      fc.option(fc.stringMatching(/^[a-z0-9_.:*, -]{1,12}$/)),
    )
    .map(([t, args]) => (args === null ? t : `${t}(${args})`));
  const value = fc.oneof(fc.string({ maxLength: 30 }), SCALAR);
  const clientField = fc.constantFrom(
    'disable-model-invocation',
    'argument-hint',
    'version',
    'user-invocable',
    'model',
    'x-custom',
  );
  const skill = fc.record(
    {
      name: fc
        .oneof(
          nameOf(letter),
          nameOf(fc.constantFrom(...DECOMPOSABLE)).map((n) => n.normalize('NFD')),
        )
        .filter((n) => codePoints(n.normalize('NFKC')) <= 64),
      description: fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim().length > 0),
      body: fc.string({ maxLength: 300 }),
      license: value,
      compatibility: value.filter((s) => s.length > 0 && codePoints(s) <= 500),
      metadata: fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9_-]{0,10}$/), value, {
        minKeys: 1,
        maxKeys: 4,
      }),
      allowedTools: fc.array(tool, { maxLength: 4 }),
      extraFields: fc.dictionary(
        clientField,
        fc.oneof(
          value,
          fc.array(value, { maxLength: 3 }),
          fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), value),
        ),
        { minKeys: 1, maxKeys: 3 },
      ),
    },
    { requiredKeys: ['name', 'description', 'body'] },
  );

  it('parseSkill(formatSkill(s)) equals s, and formatSkill of that is the same text (extra fields read leniently)', () => {
    fc.assert(
      fc.property(skill, (s) => {
        const out = formatSkill(s);
        const back = parseSkill(out, { lenient: true });
        expect(back).toEqual(s);
        expect(formatSkill(back)).toBe(out);
        if (s.extraFields === undefined) expect(parseSkill(out)).toEqual(s);
        else expect(() => parseSkill(out)).toThrow(/unknown-field/);
      }),
      { numRuns: 300 },
    );
  });

  it("allowed-tools: Claude Code's comma-separated form and the spec's space-separated one read the same tools", () => {
    fc.assert(
      fc.property(fc.array(tool, { minLength: 1, maxLength: 5 }), (tools) => {
        const warned: string[] = [];
        const read = (line: string) =>
          parseSkill(`---\nname: t\ndescription: d\nallowed-tools: "${line}"\n---\n`, {
            onWarning: (_m, d) => warned.push(d.rule),
          }).allowedTools;
        expect(read(tools.join(' '))).toEqual(tools);
        expect(warned).toEqual([]);
        expect(read(tools.join(', '))).toEqual(tools);
        expect(warned).toEqual(tools.length > 1 ? ['allowed-tools-format'] : []);
      }),
      { numRuns: 300 },
    );
  });
});
