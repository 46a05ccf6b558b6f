import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// create-skillrl embeds, at build time, the versions of the packages its scaffolds depend on; it does not
// depend on them itself, so changesets would not release it when they are released. A release that bumps
// one of them without create-skillrl would leave `npm create skillrl` writing the previous ranges (and
// templates that may use what only the new versions export). Every pending changeset set must therefore
// release create-skillrl beside them.
const EMBEDDED = [
  '@skillrl/core',
  '@skillrl/testkit',
  '@skillrl/rollout',
  '@skillrl/orchestrator',
  '@skillrl/cli',
  '@skillrl/task-household',
];

const changesetDir = join(__dirname, '..', '..', '..', '.changeset');

/** The packages each pending changeset releases (its frontmatter's keys). */
function pendingReleases(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!existsSync(changesetDir)) return out;
  for (const file of readdirSync(changesetDir).filter((f) => f.endsWith('.md') && f !== 'README.md')) {
    out.set(file, releasedBy(readFileSync(join(changesetDir, file), 'utf8')));
  }
  return out;
}

function releasedBy(changeset: string): string[] {
  const front = /^---\n([\s\S]*?)\n---/.exec(changeset)?.[1] ?? '';
  // Names as YAML writes keys: bare, "double" or 'single' quoted.
  return [...front.matchAll(/^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch)\s*$/gm)].map(
    (m) => m[1] as string,
  );
}

describe('create-skillrl is released with the packages whose versions it embeds', () => {
  it('a pending release of core, testkit, rollout, orchestrator, cli or task-household includes create-skillrl', () => {
    const releases = pendingReleases();
    const all = new Set([...releases.values()].flat());
    const embedded = EMBEDDED.filter((name) => all.has(name));
    if (embedded.length > 0) {
      expect(
        all.has('create-skillrl'),
        `pending releases of ${embedded.join(', ')} need a create-skillrl changeset`,
      ).toBe(true);
    }
  });

  it('reads a changeset the way changesets writes one (so the rule above can fail)', () => {
    const text = '---\n"@skillrl/core": minor\n"create-skillrl": patch\n---\n\nA sentence: with a colon.\n';
    expect(releasedBy(text)).toEqual(['@skillrl/core', 'create-skillrl']);
    expect(releasedBy("---\n'@skillrl/cli': minor\n---\n")).toEqual(['@skillrl/cli']);
    expect(releasedBy('no frontmatter')).toEqual([]);
    for (const names of pendingReleases().values())
      for (const name of names) expect(name).toMatch(/^(@skillrl\/)?[a-z-]+$/);
  });
});
