import { describe, expect, it } from 'vitest';
import { leadingId } from './leading-id.js';

describe('leadingId', () => {
  it("reads a trajectory line's id, escapes included, and gives up on a line that does not start with it", () => {
    expect(leadingId(JSON.stringify({ id: 's1/"q"\\x', steps: [] }))).toBe('s1/"q"\\x');
    expect(leadingId('{"id":"s2/t:c1:i0","taskId":"t"}')).toBe('s2/t:c1:i0');
    expect(leadingId('{"taskId":"t","id":"x"}')).toBeUndefined();
  });
});
