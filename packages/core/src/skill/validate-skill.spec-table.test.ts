import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Skill } from '../contracts/skill.js';
import { SkillFormatError, type SkillRule } from '../errors/skill-format-error.js';
import { parseSkill } from './parse-skill.js';
import { validateSkillFolder } from './validate-skill-folder.js';

/**
 * The Agent Skills rules, one row per rule and edge: every row cites the sentence of the specification
 * (agentskills/agentskills `docs/specification.mdx`) or the skills-ref function (`skills-ref/src/skills_ref/`)
 * it checks. Each row is a skill folder, validated strict and lenient with `validateSkillFolder`; rows whose
 * rules concern the text alone are also checked against `parseSkill`.
 */

const SPEC = {
  skillFile: 'spec: "A skill is a directory containing, at minimum, a `SKILL.md` file"',
  frontmatter: 'spec: "The `SKILL.md` file must contain YAML frontmatter followed by Markdown content."',
  nameLength: 'spec (`name`): "Must be 1-64 characters"',
  nameChars:
    'spec (`name`): "May only contain unicode lowercase alphanumeric characters (`a-z`, `0-9`) and hyphens (`-`)"',
  nameEnds: 'spec (`name`): "Must not start or end with a hyphen (`-`)"',
  nameDouble: 'spec (`name`): "Must not contain consecutive hyphens (`--`)"',
  nameDir: 'spec (`name`): "Must match the parent directory name"',
  nameInvalidExample: 'spec (`name`, invalid examples): "name: PDF-Processing  # uppercase not allowed"',
  description: 'spec (`description`): "Must be 1-1024 characters"',
  descriptionTable: 'spec (frontmatter table, `description`): "Max 1024 characters. Non-empty."',
  compatibility: 'spec (`compatibility`): "Must be 1-500 characters if provided"',
  metadata: 'spec (`metadata`): "A map from string keys to string values"',
  license: 'spec (`license`): "Specifies the license applied to the skill"',
  allowedTools: 'spec (`allowed-tools`): "A space-separated string of tools that are pre-approved to run"',
  fields:
    'spec (frontmatter table): the fields are `name`, `description`, `license`, `compatibility`, `metadata`, `allowed-tools`',
  lines: 'spec: "Keep your main `SKILL.md` under 500 lines."',
  tokens: 'spec: "**Instructions** (< 5000 tokens recommended)"',
  relative: 'spec: "When referencing other files in your skill, use relative paths from the skill root"',
  oneLevel: 'spec: "Keep file references one level deep from `SKILL.md`."',
  layout:
    'spec: "A skill directory may contain any files and directories beyond the required `SKILL.md`. The conventions below are recommendations"',
} as const;

const REF = {
  findSkillMd:
    'skills-ref `parser.find_skill_md`: "Prefers SKILL.md (uppercase) but accepts skill.md (lowercase)."',
  strictyaml:
    'skills-ref `parser.parse_frontmatter`: `strictyaml.load(frontmatter_str)` reads every scalar as a string',
  metadataStr:
    'skills-ref `parser.parse_frontmatter`: `{str(k): str(v) for k, v in metadata["metadata"].items()}`',
  nfkc: 'skills-ref `validator._validate_name`: `unicodedata.normalize("NFKC", name.strip())`',
  len: 'skills-ref `validator._validate_name`: `len(name) > MAX_SKILL_NAME_LENGTH` (len counts code points)',
  lower: 'skills-ref `validator._validate_name`: `if name != name.lower()`',
  isalnum: 'skills-ref `validator._validate_name`: `all(c.isalnum() or c == "-" for c in name)`',
  dirNfkc:
    'skills-ref `validator._validate_name`: `dir_name = unicodedata.normalize("NFKC", skill_dir.name)`',
  nameStr: 'skills-ref `validator._validate_name`: "Field \'name\' must be a non-empty string"',
  descLen: 'skills-ref `validator._validate_description`: `len(description) > MAX_DESCRIPTION_LENGTH`',
  descStr: 'skills-ref `validator._validate_description`: "Field \'description\' must be a non-empty string"',
  compatLen:
    'skills-ref `validator._validate_compatibility`: `len(compatibility) > MAX_COMPATIBILITY_LENGTH`',
  fields: 'skills-ref `validator._validate_metadata_fields`: "Unexpected fields in frontmatter"',
  missing: 'skills-ref `validator.validate`: "Missing required file: SKILL.md"',
  required: 'skills-ref `validator.validate_metadata`: "Missing required field in frontmatter: name"',
  parseStart: 'skills-ref `parser.parse_frontmatter`: "SKILL.md must start with YAML frontmatter (---)"',
  parseClose: 'skills-ref `parser.parse_frontmatter`: "SKILL.md frontmatter not properly closed with ---"',
  parseMapping: 'skills-ref `parser.parse_frontmatter`: "SKILL.md frontmatter must be a YAML mapping"',
  parseYaml: 'skills-ref `parser.parse_frontmatter`: "Invalid YAML in frontmatter"',
} as const;

interface Outcome {
  errors?: SkillRule[];
  warnings?: SkillRule[];
}

interface Row {
  title: string;
  /** The spec sentence or skills-ref function the row checks. */
  cite: string;
  /** The frontmatter lines; `name: pdf-processing` and a description are added unless the row sets them. */
  frontmatter?: string;
  /** The whole SKILL.md text, instead of `frontmatter` and `body`. */
  text?: string;
  body?: string;
  /** The folder's name (default `pdf-processing`). */
  folder?: string;
  /** The instructions' file name (default `SKILL.md`); null for none. */
  file?: string | null;
  /** Other files of the folder, by relative path. */
  files?: Record<string, string>;
  strict: Outcome;
  /** Defaults to `strict`. */
  lenient?: Outcome;
  /** Fields of the skill read (strict when it passes, else lenient). */
  skill?: Partial<Skill>;
}

const BODY = '# PDF processing\n\nExtract the text, then check it.\n';
const ADLAM_A = '\u{1E922}'; // ADLAM SMALL LETTER ALIF: a lowercase letter outside the BMP (2 UTF-16 units)
const SCRIPT_A = '\u{1D49C}'; // MATHEMATICAL SCRIPT CAPITAL A: 1 code point, 2 UTF-16 units
const NFC = 'donn\u00e9es';
const NFD = 'donne\u0301es';

const fm = (lines: string, { name = true, description = true } = {}) =>
  [
    name ? 'name: pdf-processing' : '',
    description ? 'description: Extract PDF text. Use when handling PDFs.' : '',
    lines,
  ]
    .filter(Boolean)
    .join('\n');

const ROWS: Row[] = [
  // Directory structure and frontmatter.
  { title: 'the minimal skill', cite: SPEC.skillFile, frontmatter: fm(''), strict: {} },
  {
    title: 'the example with optional fields',
    cite: SPEC.metadata,
    frontmatter: fm('license: Apache-2.0\nmetadata:\n  author: example-org\n  version: "1.0"'),
    strict: {},
    skill: { license: 'Apache-2.0', metadata: { author: 'example-org', version: '1.0' } },
  },
  { title: 'no SKILL.md in the folder', cite: REF.missing, file: null, strict: { errors: ['skill-file'] } },
  {
    title: 'lowercase skill.md is found',
    cite: REF.findSkillMd,
    file: 'skill.md',
    frontmatter: fm(''),
    strict: {},
  },
  { title: 'no frontmatter', cite: REF.parseStart, text: '# PDF\n', strict: { errors: ['frontmatter'] } },
  {
    title: 'frontmatter never closed',
    cite: REF.parseClose,
    text: '---\nname: pdf-processing\ndescription: d\n',
    strict: { errors: ['frontmatter'] },
  },
  {
    title: 'frontmatter that is not YAML',
    cite: REF.parseYaml,
    text: '---\nname: [a\n---\n',
    strict: { errors: ['yaml'] },
  },
  {
    title: 'frontmatter with a key twice',
    cite: REF.parseYaml,
    text: '---\nname: a\nname: b\ndescription: d\n---\n',
    strict: { errors: ['yaml'] },
  },
  {
    title: 'frontmatter that is a list',
    cite: REF.parseMapping,
    text: '---\n- a\n---\n',
    strict: { errors: ['frontmatter'] },
  },
  {
    title: 'a body follows the frontmatter',
    cite: SPEC.frontmatter,
    frontmatter: fm(''),
    body: '',
    strict: {},
  },

  // name
  {
    title: 'name missing',
    cite: REF.required,
    frontmatter: fm('', { name: false }),
    strict: { errors: ['name-required'] },
  },
  {
    title: 'name empty',
    cite: REF.nameStr,
    frontmatter: fm('name: ""', { name: false }),
    strict: { errors: ['name-required'] },
  },
  {
    title: 'name with no value (an empty string)',
    cite: REF.strictyaml,
    frontmatter: fm('name:', { name: false }),
    strict: { errors: ['name-required'] },
  },
  {
    title: 'name of 64 characters',
    cite: SPEC.nameLength,
    folder: 'a'.repeat(64),
    frontmatter: fm(`name: ${'a'.repeat(64)}`, { name: false }),
    strict: {},
  },
  {
    title: 'name of 65 characters',
    cite: SPEC.nameLength,
    folder: 'a'.repeat(65),
    frontmatter: fm(`name: ${'a'.repeat(65)}`, { name: false }),
    strict: { errors: ['name-length'] },
  },
  {
    // A folder name is at most 255 bytes, so the astral letter is one of 64: 65 UTF-16 units, 64 characters.
    title: 'name of 64 code points, one astral (65 UTF-16 units), is 64 characters',
    cite: REF.len,
    folder: `${'a'.repeat(63)}${ADLAM_A}`,
    frontmatter: fm(`name: ${'a'.repeat(63)}${ADLAM_A}`, { name: false }),
    strict: {},
  },
  {
    title: 'name of 65 code points, one astral',
    cite: REF.len,
    folder: `${'a'.repeat(64)}${ADLAM_A}`,
    frontmatter: fm(`name: ${'a'.repeat(64)}${ADLAM_A}`, { name: false }),
    strict: { errors: ['name-length'] },
  },
  {
    title: 'name length counted after NFKC (a ligature is two letters)',
    cite: REF.nfkc,
    folder: 'ﬁ'.repeat(33),
    frontmatter: fm(`name: ${'ﬁ'.repeat(33)}`, { name: false }),
    strict: { errors: ['name-length'] },
  },
  {
    title: 'Unicode lowercase letters (données)',
    cite: SPEC.nameChars,
    folder: NFC,
    frontmatter: fm(`name: ${NFC}`, { name: false }),
    strict: {},
    skill: { name: NFC },
  },
  {
    title: 'Unicode letters without case (中文技能)',
    cite: REF.isalnum,
    folder: '中文技能',
    frontmatter: fm('name: 中文技能', { name: false }),
    strict: {},
  },
  {
    title: 'digits only',
    cite: SPEC.nameChars,
    folder: '2024',
    frontmatter: fm('name: "2024"', { name: false }),
    strict: {},
  },
  {
    title: 'NFKC folds compatibility characters (ﬁle-tools is file-tools)',
    cite: REF.nfkc,
    folder: 'file-tools',
    frontmatter: fm('name: ﬁle-tools', { name: false }),
    strict: {},
    skill: { name: 'ﬁle-tools' },
  },
  {
    title: 'NFKC folds fullwidth letters (ｐｄｆ is pdf)',
    cite: REF.nfkc,
    folder: 'pdf',
    frontmatter: fm('name: ｐｄｆ', { name: false }),
    strict: {},
  },
  {
    title: 'uppercase ASCII',
    cite: SPEC.nameInvalidExample,
    folder: 'PDF-Processing',
    frontmatter: fm('name: PDF-Processing', { name: false }),
    strict: { errors: ['name-charset'] },
  },
  {
    title: 'uppercase Unicode (Données)',
    cite: REF.lower,
    folder: 'Données',
    frontmatter: fm('name: Données', { name: false }),
    strict: { errors: ['name-charset'] },
  },
  {
    title: 'a titlecase letter (ǅ)',
    cite: REF.lower,
    folder: 'ǅ',
    frontmatter: fm('name: ǅ', { name: false }),
    strict: { errors: ['name-charset'] },
  },
  {
    title: 'an underscore',
    cite: REF.isalnum,
    folder: 'pdf_processing',
    frontmatter: fm('name: pdf_processing', { name: false }),
    strict: { errors: ['name-charset'] },
  },
  {
    title: 'a space',
    cite: REF.isalnum,
    folder: 'pdf processing',
    frontmatter: fm('name: pdf processing', { name: false }),
    strict: { errors: ['name-charset'] },
  },
  {
    title: 'combining marks are not alphanumeric (हिंदी)',
    cite: REF.isalnum,
    folder: 'हिंदी',
    frontmatter: fm('name: हिंदी', { name: false }),
    strict: { errors: ['name-charset'] },
  },
  {
    title: 'leading hyphen',
    cite: SPEC.nameEnds,
    folder: '-pdf',
    frontmatter: fm('name: -pdf', { name: false }),
    strict: { errors: ['name-hyphens'] },
  },
  {
    title: 'trailing hyphen',
    cite: SPEC.nameEnds,
    folder: 'pdf-',
    frontmatter: fm('name: pdf-', { name: false }),
    strict: { errors: ['name-hyphens'] },
  },
  {
    title: 'consecutive hyphens',
    cite: SPEC.nameDouble,
    folder: 'pdf--processing',
    frontmatter: fm('name: pdf--processing', { name: false }),
    strict: { errors: ['name-hyphens'] },
  },
  {
    title: 'name differs from the folder',
    cite: SPEC.nameDir,
    folder: 'pdf',
    frontmatter: fm(''),
    strict: { errors: ['name-directory'] },
  },
  {
    title: 'NFC name in an NFD folder',
    cite: REF.dirNfkc,
    folder: NFD,
    frontmatter: fm(`name: ${NFC}`, { name: false }),
    strict: {},
  },
  {
    title: 'NFD name in an NFC folder',
    cite: REF.dirNfkc,
    folder: NFC,
    frontmatter: fm(`name: ${NFD}`, { name: false }),
    strict: {},
  },
  {
    title: 'name: 123 is the string "123"',
    cite: REF.strictyaml,
    folder: '123',
    frontmatter: fm('name: 123', { name: false }),
    strict: {},
    skill: { name: '123' },
  },

  // description
  {
    title: 'description missing',
    cite: SPEC.descriptionTable,
    frontmatter: fm('', { description: false }),
    strict: { errors: ['description-required'] },
  },
  {
    title: 'description blank',
    cite: REF.descStr,
    frontmatter: fm('description: "  "', { description: false }),
    strict: { errors: ['description-required'] },
  },
  {
    title: 'description of 1024 astral code points',
    cite: REF.descLen,
    frontmatter: fm(`description: ${SCRIPT_A.repeat(1024)}`, { description: false }),
    strict: {},
  },
  {
    title: 'description of 1025 characters',
    cite: SPEC.description,
    frontmatter: fm(`description: ${'x'.repeat(1025)}`, { description: false }),
    strict: { errors: ['description-length'] },
  },
  {
    title: 'description: 2024 is the string "2024"',
    cite: REF.strictyaml,
    frontmatter: fm('description: 2024', { description: false }),
    strict: {},
    skill: { description: '2024' },
  },

  // license, compatibility, metadata
  {
    title: 'license: 3 is the string "3"',
    cite: REF.strictyaml,
    frontmatter: fm('license: 3'),
    strict: {},
    skill: { license: '3' },
  },
  {
    title: 'license as a list',
    cite: SPEC.license,
    frontmatter: fm('license: [MIT]'),
    strict: { errors: ['license-type'] },
  },
  {
    title: 'compatibility of 500 astral code points',
    cite: SPEC.compatibility,
    frontmatter: fm(`compatibility: ${SCRIPT_A.repeat(500)}`),
    strict: {},
  },
  {
    title: 'compatibility of 501 characters',
    cite: REF.compatLen,
    frontmatter: fm(`compatibility: ${'c'.repeat(501)}`),
    strict: { errors: ['compatibility-length'] },
  },
  {
    title: 'compatibility empty',
    cite: SPEC.compatibility,
    frontmatter: fm('compatibility: ""'),
    strict: { errors: ['compatibility-length'] },
  },
  {
    title: 'metadata scalars of every type are strings',
    cite: REF.metadataStr,
    frontmatter: fm(
      'metadata: { version: 1.0, count: 3, beta: true, none: null, tilde: ~, date: 2024-01-01, hex: 0x1F }',
    ),
    strict: {},
    skill: {
      metadata: {
        version: '1.0',
        count: '3',
        beta: 'true',
        none: 'null',
        tilde: '~',
        date: '2024-01-01',
        hex: '0x1F',
      },
    },
  },
  {
    title: 'metadata value that is a list',
    cite: SPEC.metadata,
    frontmatter: fm('metadata:\n  tags: [a, b]'),
    strict: { errors: ['metadata-type'] },
  },
  {
    title: 'metadata that is not a map',
    cite: SPEC.metadata,
    frontmatter: fm('metadata: v1'),
    strict: { errors: ['metadata-type'] },
  },

  // allowed-tools
  {
    title: 'allowed-tools as the spec writes it',
    cite: SPEC.allowedTools,
    frontmatter: fm('allowed-tools: Bash(git:*) Bash(jq:*) Read'),
    strict: {},
    skill: { allowedTools: ['Bash(git:*)', 'Bash(jq:*)', 'Read'] },
  },
  {
    title: "allowed-tools comma-separated (Claude Code's form): split, with a warning",
    cite: SPEC.allowedTools,
    frontmatter: fm('allowed-tools: Read, Grep, Glob'),
    strict: { warnings: ['allowed-tools-format'] },
    skill: { allowedTools: ['Read', 'Grep', 'Glob'] },
  },
  {
    title: 'allowed-tools with spaces inside parentheses',
    cite: SPEC.allowedTools,
    frontmatter: fm('allowed-tools: Bash(git add:*), Bash(git commit -m:*)'),
    strict: { warnings: ['allowed-tools-format'] },
    skill: { allowedTools: ['Bash(git add:*)', 'Bash(git commit -m:*)'] },
  },
  {
    title: 'allowed-tools as a YAML list (as skills-ref and clients accept)',
    cite: REF.strictyaml,
    frontmatter: fm('allowed-tools:\n  - Read\n  - Bash(git:*)'),
    strict: { warnings: ['allowed-tools-format'] },
    skill: { allowedTools: ['Read', 'Bash(git:*)'] },
  },
  {
    title: 'allowed-tools list item holding two tools',
    cite: SPEC.allowedTools,
    frontmatter: fm('allowed-tools: [Read Grep]'),
    strict: { errors: ['allowed-tools-type'], warnings: ['allowed-tools-format'] },
  },

  // fields outside the spec: refused strict (as skills-ref), warnings lenient
  ...[
    'disable-model-invocation: true',
    'argument-hint: "[file]"',
    'version: 1.0',
    'user-invocable: false',
    'model: haiku',
    'author: me',
  ].map((line): Row => {
    const [key, value] = line.split(': ') as [string, string];
    return {
      title: `${key} outside the spec`,
      cite: `${REF.fields}; ${SPEC.fields}`,
      frontmatter: fm(line),
      strict: { errors: ['unknown-field'] },
      lenient: { warnings: ['unknown-field'] },
      skill: { extraFields: { [key]: value.replace(/^"|"$/g, '') } },
    };
  }),

  // body
  {
    title: 'body of 500 lines',
    cite: SPEC.lines,
    frontmatter: fm(''),
    body: 'step\n'.repeat(499),
    strict: {},
  },
  {
    title: 'body of 501 lines',
    cite: SPEC.lines,
    frontmatter: fm(''),
    body: 'step\n'.repeat(500),
    strict: { warnings: ['body-lines'] },
  },
  {
    title: 'body of about 5000 tokens',
    cite: SPEC.tokens,
    frontmatter: fm(''),
    body: 'x'.repeat(20_000),
    strict: {},
  },
  {
    title: 'body over 5000 tokens',
    cite: SPEC.tokens,
    frontmatter: fm(''),
    body: 'x'.repeat(20_004),
    strict: { warnings: ['body-tokens'] },
  },

  // file references
  {
    title: 'a link and a bare path that exist',
    cite: SPEC.relative,
    frontmatter: fm(''),
    body: 'See [the reference guide](references/REFERENCE.md) for details.\n\nRun the extraction script:\nscripts/extract.py\n',
    files: { 'references/REFERENCE.md': '# Reference\n', 'scripts/extract.py': 'print(1)\n' },
    strict: {},
  },
  {
    title: 'a linked file that is missing',
    cite: SPEC.relative,
    frontmatter: fm(''),
    body: 'See [the reference guide](references/REFERENCE.md).\n',
    strict: { errors: ['reference-missing'] },
    lenient: { warnings: ['reference-missing'] },
  },
  {
    title: 'a bare script path that is missing (in a code block)',
    cite: SPEC.relative,
    frontmatter: fm(''),
    body: '```bash\npython scripts/extract.py input.pdf\n```\n',
    strict: { errors: ['reference-missing'] },
    lenient: { warnings: ['reference-missing'] },
  },
  {
    title: 'a reference spelled with other case than the file (missing on a case-sensitive file system)',
    cite: SPEC.relative,
    frontmatter: fm(''),
    body: 'See [the reference guide](references/reference.md).\n',
    files: { 'references/REFERENCE.md': '# Reference\n' },
    strict: { errors: ['reference-missing'] },
    lenient: { warnings: ['reference-missing'] },
  },
  {
    title: 'a reference two levels deep',
    cite: SPEC.oneLevel,
    frontmatter: fm(''),
    body: 'See [forms](references/forms/w9.md).\n',
    files: { 'references/forms/w9.md': '# W-9\n' },
    strict: { warnings: ['reference-depth'] },
  },
  {
    title: 'a reference outside the folder',
    cite: SPEC.relative,
    frontmatter: fm(''),
    body: 'See [the other skill](../other/SKILL.md).\n',
    strict: { warnings: ['reference-depth'] },
  },
  {
    title: 'URLs, anchors and placeholders are not file references',
    cite: SPEC.relative,
    frontmatter: fm(''),
    body: 'See [docs](https://example.com/scripts/x.py), [below](#usage), `scripts/<name>.py` and references/*.md.\n',
    strict: {},
  },
  {
    title: 'a top-level file the body links to, and a license file',
    cite: SPEC.layout,
    frontmatter: fm('license: Proprietary. LICENSE.txt has complete terms'),
    body: 'See [FORMS.md](FORMS.md).\n',
    files: { 'FORMS.md': '# Forms\n', 'LICENSE.txt': 'terms\n', 'assets/template.docx': 'x' },
    strict: {},
  },
  {
    title: 'a top-level file nothing references',
    cite: SPEC.layout,
    frontmatter: fm(''),
    files: { 'notes.txt': 'scratch\n', 'tmp/out.json': '{}' },
    strict: { warnings: ['layout', 'layout'] },
  },
];

/** Rules that need the folder; the others are the text's and `parseSkill` must agree on them. */
const FOLDER_RULES = new Set<SkillRule>([
  'skill-file',
  'name-directory',
  'reference-missing',
  'reference-depth',
  'layout',
]);

function writeRow(row: Row): string {
  const root = mkdtempSync(join(tmpdir(), 'skillrl-spec-table-'));
  const dir = join(root, row.folder ?? 'pdf-processing');
  mkdirSync(dir, { recursive: true });
  const file = row.file === undefined ? 'SKILL.md' : row.file;
  if (file !== null) writeFileSync(join(dir, file), textOf(row));
  for (const [path, content] of Object.entries(row.files ?? {})) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

function textOf(row: Row): string {
  return row.text ?? `---\n${row.frontmatter ?? fm('')}\n---\n${row.body ?? BODY}`;
}

const sorted = (rules: SkillRule[] | undefined) => [...(rules ?? [])].sort();

describe('SKILL.md validation, rule by rule with the Agent Skills spec and skills-ref', () => {
  it('every row cites the spec or skills-ref', () => {
    for (const row of ROWS) expect(row.cite, row.title).toMatch(/^(spec|skills-ref)\b.+/);
    expect(new Set(ROWS.map((r) => r.title)).size).toBe(ROWS.length);
  });

  for (const mode of ['strict', 'lenient'] as const) {
    describe(mode, () => {
      it.each(ROWS.map((row) => [row.title, row] as const))('%s', (_title, row) => {
        const want = mode === 'lenient' ? (row.lenient ?? row.strict) : row.strict;
        const result = validateSkillFolder(writeRow(row), { lenient: mode === 'lenient' });
        expect(
          {
            errors: sorted(result.problems.map((p) => p.rule)),
            warnings: sorted(result.warningDetails.map((w) => w.rule)),
          },
          row.cite,
        ).toEqual({
          errors: sorted(want.errors),
          warnings: sorted(want.warnings),
        });
        expect(result.ok).toBe((want.errors ?? []).length === 0);
        expect(result.warnings).toEqual(
          result.warningDetails.map((w) => `[${w.rule}] ${w.field}: ${w.message}`),
        );
        if (row.skill && result.ok) expect(result.skill).toMatchObject(row.skill);

        // The text's rules, through parseSkill: it throws exactly the text's errors, and warns the text's warnings.
        if (row.file === null) return;
        const textErrors = sorted(want.errors?.filter((r) => !FOLDER_RULES.has(r)));
        const textWarnings = sorted(want.warnings?.filter((r) => !FOLDER_RULES.has(r)));
        const warned: SkillRule[] = [];
        try {
          const skill = parseSkill(textOf(row), {
            lenient: mode === 'lenient',
            onWarning: (_m, detail) => warned.push(detail.rule),
          });
          expect(textErrors, row.cite).toEqual([]);
          expect(sorted(warned)).toEqual(textWarnings);
          if (row.skill) expect(skill).toMatchObject(row.skill);
        } catch (e) {
          if (!SkillFormatError.isInstance(e)) throw e;
          expect(sorted(e.problems.map((p) => p.rule)), row.cite).toEqual(textErrors);
        }
      });
    });
  }
});
