import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Run content reaches the page as text only (public/lib/dom.js). The browser test shows a `<script>` in a
// SKILL.md and an observation staying text; this keeps the page's code from growing an HTML sink at all.
const PUBLIC = join(import.meta.dirname, '..', 'public');
const SINKS =
  /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|createContextualFragment|\beval\(|new Function\(/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? files(join(dir, e.name))
      : e.name.endsWith('.js') || e.name.endsWith('.html')
        ? [join(dir, e.name)]
        : [],
  );
}

describe('the page', () => {
  it('has no HTML sink and no inline script in any of its files', () => {
    const found = files(PUBLIC);
    expect(found.length).toBeGreaterThan(5);
    for (const file of found) {
      const text = readFileSync(file, 'utf8');
      expect(SINKS.test(text), file).toBe(false);
      if (file.endsWith('.html')) expect(/<script(?![^>]*\bsrc=)[^>]*>/.test(text), file).toBe(false);
    }
  });
});
