import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffSkills } from './skill-diff.js';

describe('diffSkills', () => {
  it('gives the hunk, the kept, removed and added lines of a small edit', () => {
    // before: a b c / after: a B c d. Line 2 is replaced and line 4 appended: 2 added, 1 removed,
    // one hunk covering old lines 1–3 and new lines 1–4 (context 3 reaches both ends).
    const d = diffSkills('a\nb\nc\n', 'a\nB\nc\nd\n', { from: 'g0', to: 'g1' });
    expect(d.added).toBe(2);
    expect(d.removed).toBe(1);
    expect(d.lines).toEqual([
      { kind: 'hunk', text: '@@ -1,3 +1,4 @@' },
      { kind: 'same', text: 'a' },
      { kind: 'del', text: 'b' },
      { kind: 'add', text: 'B' },
      { kind: 'same', text: 'c' },
      { kind: 'add', text: 'd' },
    ]);
  });

  it('is empty for equal texts', () => {
    const d = diffSkills('same\n', 'same\n', { from: 'a', to: 'b' });
    expect(d).toEqual({ from: 'a', to: 'b', added: 0, removed: 0, lines: [] });
  });

  it('keeps only the context around a change in a long skill', () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 15', 'line fifteen');
    const d = diffSkills(before, after, { from: 'a', to: 'b' }, 2);
    // 2 context lines each side of one replaced line: 1 hunk header + 2 + 1 + 1 + 2.
    expect(d.lines).toHaveLength(7);
    expect(d.lines.filter((l) => l.kind === 'same').map((l) => l.text)).toEqual([
      'line 13',
      'line 14',
      'line 16',
      'line 17',
    ]);
  });

  it('with unlimited context, kept+removed lines rebuild the old text and kept+added the new', () => {
    const line = fc.constantFrom('step one', 'step two', 'check inventory', 'open fridge', '', '# title');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.array(line, { maxLength: 12 }), (a, b) => {
        const before = a.map((l) => `${l}\n`).join('');
        const after = b.map((l) => `${l}\n`).join('');
        const d = diffSkills(before, after, { from: 'a', to: 'b' }, Number.MAX_SAFE_INTEGER);
        if (before === after) return d.lines.length === 0;
        const old = d.lines.filter((l) => l.kind === 'same' || l.kind === 'del').map((l) => `${l.text}\n`);
        const neu = d.lines.filter((l) => l.kind === 'same' || l.kind === 'add').map((l) => `${l.text}\n`);
        return old.join('') === before && neu.join('') === after;
      }),
    );
  });
});
