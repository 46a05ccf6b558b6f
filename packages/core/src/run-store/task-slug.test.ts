import { describe, expect, it } from 'vitest';
import { taskSlug } from './task-slug.js';

describe('taskSlug', () => {
  it('turns task ids into folder-safe names', () => {
    expect(taskSlug('household/train/1/0')).toBe('household-train-1-0');
    expect(taskSlug('  gaia: 2 ')).toBe('gaia-2');
    expect(taskSlug('a.b_c-d')).toBe('a.b_c-d');
    expect(taskSlug('///')).toBe('task');
    // Never a name that climbs out of its folder.
    expect(taskSlug('../..')).toBe('task');
    expect(taskSlug('..')).toBe('task');
    expect(taskSlug('.hidden.')).toBe('hidden');
    expect(taskSlug('a..b')).toBe('a..b');
  });
});
