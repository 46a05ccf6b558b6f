import { describe, expect, it } from 'vitest';
import { renderBank } from './render-bank.js';

describe('renderBank', () => {
  it('shows the lineage (carried and final versions), counts the candidates left in bank.jsonl, escapes text', () => {
    const html = renderBank([
      { name: 'pick', hash: 'aaa', generation: 0, task: 't1', carried: true },
      { name: 'pick', hash: 'bbb', parent: 'aaa', generation: 1, task: 't1', candidate: 0, carried: false },
      {
        name: 'pick',
        hash: 'ccc',
        parent: 'aaa',
        generation: 1,
        task: 't1',
        candidate: 1,
        carried: true,
        final: true,
        utility: {
          split: 'final',
          withSkill: 0.75,
          withoutSkill: 0.25,
          gap: 0.5,
          lo: 0.1,
          hi: 0.9,
          pairedBy: 'episode',
          pairs: 4,
          episodes: 8,
        },
      },
      { name: '<script>x</script>', hash: 'ddd' },
    ]);
    expect(html).toContain('aaa');
    expect(html).toContain('ccc');
    expect(html).not.toContain('<code>bbb</code>');
    expect(html).toContain('1 candidates that were not carried are in bank.jsonl.');
    expect(html).toContain('candidate 1');
    expect(html).toContain('0.500 [0.100, 0.900] (4 episode pairs, final)');
    expect(html).not.toContain('<script>x');
    expect(html).toContain('&lt;script&gt;x');
  });
});
