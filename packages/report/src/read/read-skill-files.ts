import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** One `SKILL.md` found under `skills/`. */
export interface SkillFile {
  /** The generation folder: a number, or a label such as `final`. */
  generation: number | string;
  /** The folders between the generation and the skill (the task's slug), `''` when there are none. */
  scope: string;
  /** The skill's folder name, which is its `name`. */
  name: string;
  /** Path relative to the run directory. */
  path: string;
  text: string;
}

// skills/<gen>/<task>/<name>/SKILL.md is the deepest layout the loops write; a little slack costs nothing.
const MAX_DEPTH = 6;

/** Every `skills/<gen>/…/<name>/SKILL.md` in a run directory, sorted by generation then path. */
export function readSkillFiles(runDir: string, notes: string[]): SkillFile[] {
  const root = join(runDir, 'skills');
  if (!existsSync(root)) return [];
  const found: SkillFile[] = [];
  const walk = (dir: string, segments: string[]) => {
    if (segments.length > MAX_DEPTH) return;
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch (error) {
      notes.push(`skills/${segments.join('/')}: could not be listed (${(error as Error).message}).`);
      return;
    }
    for (const entry of entries) {
      const full = join(dir, entry);
      if (entry === 'SKILL.md' && segments.length >= 2) {
        const [gen, ...rest] = segments as [string, ...string[]];
        const name = rest[rest.length - 1] as string;
        try {
          found.push({
            generation: /^\d+$/.test(gen) ? Number(gen) : gen,
            scope: rest.slice(0, -1).join('/'),
            name,
            path: ['skills', ...segments, entry].join('/'),
            text: readFileSync(full, 'utf8'),
          });
        } catch (error) {
          notes.push(
            `skills/${segments.join('/')}/SKILL.md: could not be read (${(error as Error).message}).`,
          );
        }
        continue;
      }
      if (entry.startsWith('.')) continue;
      let isDir = false;
      try {
        isDir = statSync(full).isDirectory();
      } catch {
        // Removed between listing and stat: a run still writing. Nothing to show for it.
      }
      if (isDir) walk(full, [...segments, entry]);
    }
  };
  walk(root, []);
  const genKey = (g: number | string) => (typeof g === 'number' ? g : Number.POSITIVE_INFINITY);
  return found.sort((a, b) => genKey(a.generation) - genKey(b.generation) || a.path.localeCompare(b.path));
}
