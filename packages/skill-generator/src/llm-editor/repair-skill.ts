import {
  FAMILIES_METADATA_KEY,
  SKILL_COMPATIBILITY_MAX,
  SKILL_DESCRIPTION_MAX,
  SKILL_NAME_MAX,
  type Skill,
  validateSkill,
} from '@skillrl/core';
import { parse as parseYaml } from 'yaml';
import type { ExtractedSkillText } from './extract-skill-text.js';

/** What a repair falls back on: normally the current skill, else names made from the task family. */
export interface SkillDefaults {
  name: string;
  description: string;
  families?: string[];
}

export type RepairResult =
  | { ok: true; skill: Skill; repairs: string[]; familiesFrom: 'reply' | 'defaults' | 'none' }
  | { ok: false; reason: string };

const KNOWN_FIELDS = new Set([
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
]);
// Warnings (unresolved tags…) would go to process warnings on every odd reply; errors still throw.
const YAML_OPTIONS = { logLevel: 'error', uniqueKeys: true } as const;
const SCALAR_FIELD = /^(name|description|license|compatibility|allowed-tools)[ \t]*:[ \t]*(.*)$/;

/**
 * The Agent Skills name closest to `raw`: camelCase split, accents dropped, lowercased, every run of other
 * characters turned into one hyphen, no leading or trailing hyphen, at most 64 characters. `''` when nothing
 * usable is left.
 */
export function normalizeSkillName(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SKILL_NAME_MAX)
    .replace(/-+$/, '');
}

/** Cuts at the last space within the limit, so a description does not end mid-word, and marks the cut. */
function truncate(text: string, max: number): string {
  const room = text.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  return `${(space > max / 2 ? room.slice(0, space) : room).trimEnd()}…`;
}

function splitFrontmatter(text: string): { yaml: string; body: string } | undefined {
  const open = /^\s*---[ \t]*\r?\n/.exec(text);
  if (!open) return undefined;
  const rest = text.slice(open[0].length);
  const close = /^---[ \t]*(?:\r?\n|$)/m.exec(rest);
  // An unclosed frontmatter (the reply ended inside it) has no body worth keeping.
  if (!close) return undefined;
  return { yaml: rest.slice(0, close.index), body: rest.slice(close.index + close[0].length) };
}

/**
 * Models write `description: Use when: the object is cold`, which YAML reads as a nested mapping. Quoting
 * each top-level scalar field as a JSON string (valid YAML) recovers what the author meant.
 */
function quoteScalars(yaml: string): string {
  return yaml
    .split('\n')
    .map((line) => {
      const m = SCALAR_FIELD.exec(line);
      if (!m) return line;
      const value = (m[2] ?? '').trim();
      if (value === '' || /^["'|>[]/.test(value)) return line;
      return `${m[1]}: ${JSON.stringify(value)}`;
    })
    .join('\n');
}

function readYaml(yaml: string, repairs: string[]): Record<string, unknown> | string {
  const asMapping = (data: unknown) =>
    data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  try {
    const data = parseYaml(yaml, YAML_OPTIONS);
    if (data === null || data === undefined) return {};
    return asMapping(data) ?? 'the frontmatter is not a YAML mapping';
  } catch (error) {
    try {
      const data = asMapping(parseYaml(quoteScalars(yaml), YAML_OPTIONS));
      if (data) {
        repairs.push('frontmatter: quoted values that YAML could not read');
        return data;
      }
    } catch {
      // Fall through to the first error, which names what the model actually wrote.
    }
    return `the frontmatter is not valid YAML (${(error as Error).message.split('\n')[0]})`;
  }
}

const scalarText = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : undefined;

/**
 * Turns an extracted SKILL.md into a valid skill, repairing what can be repaired without guessing at
 * content — a name outside the Agent Skills charset, a missing or overlong description, missing frontmatter,
 * unknown fields, non-string metadata — and saying what it did; anything else is rejected with a reason.
 * A skill returned here always passes `validateSkill`.
 */
export function repairSkill(extracted: ExtractedSkillText, defaults: SkillDefaults): RepairResult {
  const repairs: string[] = [];
  let fields: Record<string, unknown>;
  let body: string;
  if (extracted.bodyOnly) {
    fields = {};
    body = extracted.text;
    repairs.push(`frontmatter: missing, name and description taken from \`${defaults.name}\``);
  } else {
    const split = splitFrontmatter(extracted.text);
    if (!split) return { ok: false, reason: 'the frontmatter has no closing `---` line' };
    const read = readYaml(split.yaml, repairs);
    if (typeof read === 'string') return { ok: false, reason: read };
    fields = read;
    body = split.body;
  }
  if (body.trim().length === 0) return { ok: false, reason: 'the skill has an empty body' };

  const skill: Skill = { name: '', description: '', body };
  const rawName = scalarText(fields.name);
  if (rawName === undefined || rawName.trim() === '') {
    skill.name = defaults.name;
    if (!extracted.bodyOnly) repairs.push(`name: missing, taken from \`${defaults.name}\``);
  } else {
    const name = normalizeSkillName(rawName);
    skill.name = name === '' ? defaults.name : name;
    if (skill.name !== rawName) repairs.push(`name: ${JSON.stringify(rawName)} → "${skill.name}"`);
  }

  const rawDescription = scalarText(fields.description)?.trim();
  if (rawDescription === undefined || rawDescription === '') {
    skill.description = defaults.description;
    if (!extracted.bodyOnly) repairs.push('description: missing, taken from the defaults');
  } else if (rawDescription.length > SKILL_DESCRIPTION_MAX) {
    skill.description = truncate(rawDescription, SKILL_DESCRIPTION_MAX);
    repairs.push(`description: cut from ${rawDescription.length} to ${skill.description.length} characters`);
  } else {
    skill.description = rawDescription;
  }

  const license = scalarText(fields.license);
  if (license !== undefined) skill.license = license;
  else if (fields.license !== undefined && fields.license !== null)
    repairs.push('license: not text, dropped');

  const compatibility = scalarText(fields.compatibility)?.trim();
  if (compatibility) {
    skill.compatibility =
      compatibility.length > SKILL_COMPATIBILITY_MAX
        ? truncate(compatibility, SKILL_COMPATIBILITY_MAX)
        : compatibility;
    if (skill.compatibility !== compatibility) repairs.push('compatibility: cut to 500 characters');
  }

  const tools = fields['allowed-tools'];
  if (typeof tools === 'string' && tools.trim() !== '')
    skill.allowedTools = tools.split(/\s+/).filter(Boolean);
  else if (Array.isArray(tools)) {
    skill.allowedTools = tools.map((t) => String(t).replace(/\s+/g, '')).filter(Boolean);
  }

  const metadata: Record<string, string> = {};
  const rawMetadata = fields.metadata;
  if (rawMetadata && typeof rawMetadata === 'object' && !Array.isArray(rawMetadata)) {
    for (const [key, value] of Object.entries(rawMetadata as Record<string, unknown>)) {
      const text = Array.isArray(value) ? value.map(String).join(' ') : scalarText(value);
      if (text === undefined) {
        repairs.push(`metadata.${key}: not text, dropped`);
        continue;
      }
      if (typeof value !== 'string') repairs.push(`metadata.${key}: ${JSON.stringify(value)} → "${text}"`);
      metadata[key] = text;
    }
  } else if (rawMetadata !== undefined && rawMetadata !== null) {
    repairs.push('metadata: not a map, dropped');
  }
  for (const [key, value] of Object.entries(fields)) {
    if (KNOWN_FIELDS.has(key)) continue;
    const text = scalarText(value);
    if (text !== undefined && !(key in metadata)) {
      metadata[key] = text;
      repairs.push(`${key}: not an Agent Skills field, moved under metadata`);
    } else {
      repairs.push(`${key}: not an Agent Skills field, dropped`);
    }
  }
  const families = metadata[FAMILIES_METADATA_KEY];
  delete metadata[FAMILIES_METADATA_KEY];
  let familiesFrom: 'reply' | 'defaults' | 'none' = 'none';
  if (families !== undefined && families.trim() !== '') {
    skill.families = families.split(/\s+/).filter(Boolean);
    familiesFrom = 'reply';
  } else if (defaults.families && defaults.families.length > 0) {
    // The editor writes for the task's skill type; a skill that forgot to say so keeps the type it replaces.
    skill.families = [...defaults.families];
    familiesFrom = 'defaults';
  }
  if (Object.keys(metadata).length > 0) skill.metadata = metadata;

  const check = validateSkill(skill);
  if (!check.ok) {
    return {
      ok: false,
      reason: `not a valid skill: ${check.problems.map((p) => `[${p.rule}] ${p.field} ${p.message}`).join('; ')}`,
    };
  }
  return { ok: true, skill, repairs, familiesFrom };
}
