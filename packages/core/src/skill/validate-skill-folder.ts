import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, posix, resolve } from 'node:path';
import type { Skill } from '../contracts/skill.js';
import type { SkillProblem } from '../errors/skill-format-error.js';
import { readSkillText } from './parse-skill.js';
import { findSkillReferences } from './skill-references.js';
import { formatSkillProblem, type SkillValidation } from './validate-skill.js';

/** The file names a skill folder's instructions may have, in the order they are looked for (skills-ref's `find_skill_md`). */
export const SKILL_FILE_NAMES: readonly string[] = ['SKILL.md', 'skill.md'];
/** The spec's optional folders. */
export const SKILL_FOLDERS: readonly string[] = ['scripts', 'references', 'assets'];

/**
 * The SKILL.md of a skill folder: `SKILL.md`, else `skill.md` (as skills-ref's `find_skill_md`), matched by
 * exact name even on a case-insensitive file system; undefined when the folder holds neither.
 */
export function findSkillFile(dir: string): string | undefined {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  const name = SKILL_FILE_NAMES.find((n) => entries.includes(n));
  return name === undefined ? undefined : join(dir, name);
}

export interface ValidateSkillFolderOptions {
  /**
   * Accept what skills clients write beyond the spec: fields outside the spec are warnings (kept in
   * `skill.extraFields`), and so are missing referenced files. Strict (the default) refuses both.
   */
  lenient?: boolean;
}

export interface SkillFolderValidation extends SkillValidation {
  /** The SKILL.md read, when the folder holds one. */
  path?: string;
  /** The skill, when its frontmatter could be read (even if it breaks rules: see `ok`). */
  skill?: Skill;
}

/**
 * Whether `segments` name an entry under `dir`, spelled exactly (a case-insensitive file system would open
 * `reference.md` for `REFERENCE.md`; the skill would then break on Linux). Names compare after NFC, since
 * some file systems store NFD.
 */
function existsExactly(dir: string, segments: string[]): boolean {
  let at = dir;
  for (const segment of segments) {
    if (segment === '.') continue;
    let entries: string[];
    try {
      entries = readdirSync(at);
    } catch {
      return false;
    }
    const want = segment.normalize('NFC');
    const found = entries.find((e) => e.normalize('NFC') === want);
    if (found === undefined) return false;
    at = join(at, found);
  }
  return true;
}

function kindOf(path: string): string {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'entry';
  }
}

/** A top-level entry the layout rule accepts without a reference: a license file, a hidden file. */
function isQuietEntry(entry: string): boolean {
  return /^licen[cs]e(?:\.|$)/i.test(entry) || entry.startsWith('.');
}

/**
 * Validates a skill folder as skills-ref's `validate(skill_dir)` does, and more of the spec:
 * - the folder holds `SKILL.md` (or `skill.md`) (rule `skill-file`);
 * - its frontmatter and body pass `validateSkill`, with `name` matching the folder's name after NFKC
 *   (`name-directory`);
 * - every file the body references (markdown links, bare `scripts/…`, `references/…`, `assets/…` paths) exists
 *   (`reference-missing`: an error, a warning in lenient mode) and is at most one level deep inside the folder
 *   (`reference-depth`, a warning: "Keep file references one level deep from `SKILL.md`");
 * - top-level entries follow the `scripts/`, `references/`, `assets/` layout (`layout`, a warning: the spec
 *   allows any files, so an entry the body or `license` names, a license file or a hidden file is quiet).
 * Never throws.
 */
export function validateSkillFolder(
  dir: string,
  options: ValidateSkillFolderOptions = {},
): SkillFolderValidation {
  const lenient = options.lenient === true;
  const at = resolve(dir);
  const problems: SkillProblem[] = [];
  const warningDetails: SkillProblem[] = [];
  const done = (extra: { path?: string; skill?: Skill } = {}): SkillFolderValidation => ({
    ok: problems.length === 0,
    problems,
    warnings: warningDetails.map(formatSkillProblem),
    warningDetails,
    ...extra,
  });
  if (!existsSync(at)) {
    problems.push({ rule: 'skill-file', field: '(folder)', message: `${at} does not exist` });
    return done();
  }
  if (!statSync(at).isDirectory()) {
    problems.push({
      rule: 'skill-file',
      field: '(folder)',
      message: `${at} is not a folder; a skill is a folder holding SKILL.md`,
    });
    return done();
  }
  const path = findSkillFile(at);
  if (path === undefined) {
    problems.push({
      rule: 'skill-file',
      field: 'SKILL.md',
      message: `${at} holds no SKILL.md (or skill.md)`,
    });
    return done();
  }
  const reading = readSkillText(readFileSync(path, 'utf8'), { directory: basename(at), lenient });
  problems.push(...reading.problems);
  warningDetails.push(...reading.warningDetails);
  const skill = reading.skill;
  if (skill === undefined) return done({ path });
  const body = typeof skill.body === 'string' ? skill.body : '';
  const references = findSkillReferences(body);
  const topLevel = new Set<string>();
  for (const reference of references) {
    const normalized = posix.normalize(reference.replace(/\\/g, '/')).replace(/\/$/, '');
    if (normalized === '..' || normalized.startsWith('../')) {
      warningDetails.push({
        rule: 'reference-depth',
        field: reference,
        message: 'is outside the skill folder; keep the files a skill uses inside its folder',
      });
      continue;
    }
    const segments = normalized.split('/');
    topLevel.add(segments[0]!);
    if (!existsExactly(at, segments)) {
      const loose = existsSync(join(at, ...segments))
        ? ' (a file spelled with other case is, which breaks on case-sensitive file systems)'
        : '';
      (lenient ? warningDetails : problems).push({
        rule: 'reference-missing',
        field: reference,
        message: `is referenced by ${basename(path)} but does not exist in the skill folder${loose}`,
      });
    }
    if (segments.length > 2) {
      warningDetails.push({
        rule: 'reference-depth',
        field: reference,
        message: `is ${segments.length - 1} levels deep; keep file references one level deep from SKILL.md (e.g. references/${segments[segments.length - 1]})`,
      });
    }
  }
  const license = typeof skill.license === 'string' ? skill.license : '';
  for (const entry of readdirSync(at).sort()) {
    if (SKILL_FILE_NAMES.includes(entry) || SKILL_FOLDERS.includes(entry)) continue;
    if (topLevel.has(entry) || isQuietEntry(entry) || license.includes(entry) || body.includes(entry))
      continue;
    const kind = kindOf(join(at, entry));
    warningDetails.push({
      rule: 'layout',
      field: entry,
      message: `is a top-level ${kind} outside the scripts/, references/, assets/ layout that SKILL.md does not reference; move it into one of them, or reference it`,
    });
  }
  return done({ path, skill });
}
