import { describe, expect, it } from 'vitest';
import { formatDuration, formatGap, formatRate, formatTime } from './format-value.js';

describe('format-value', () => {
  it('formats durations at each scale', () => {
    expect(formatDuration(undefined)).toBe('—');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(42_400)).toBe('42 s');
    // 252 s = 4 min 12 s; 10 920 s = 3 h 02 min.
    expect(formatDuration(252_000)).toBe('4 min 12 s');
    expect(formatDuration(10_920_000)).toBe('3 h 02 min');
  });

  it('formats rates and signed gaps in points', () => {
    expect(formatRate(0.5882)).toBe('58.8%');
    expect(formatRate(null)).toBe('—');
    expect(formatGap(0.25)).toBe('+25.0 pt');
    expect(formatGap(-0.042)).toBe('−4.2 pt');
    expect(formatGap(0)).toBe('±0.0 pt');
  });

  it('formats times in UTC and keeps an unparseable one as written', () => {
    expect(formatTime('2026-01-05T09:00:00.000Z')).toBe('2026-01-05 09:00:00 UTC');
    expect(formatTime('yesterday')).toBe('yesterday');
  });
});
