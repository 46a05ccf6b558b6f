import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { embedJson, embedScript } from './embed-script.js';
import { escapeHtml } from './escape-html.js';

describe('embedding data and scripts in the page', () => {
  it('embedded JSON never contains "<" and parses back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = embedJson(value);
        return !text.includes('<') && JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
      }),
    );
    expect(embedJson({ body: '</script><script>alert(1)</script>' })).not.toContain('</script');
  });

  it('a script cannot end its own element early', () => {
    expect(embedScript('var s = "</script>"; var t = "</SCRIPT >";')).toBe(
      'var s = "<\\/script>"; var t = "<\\/SCRIPT >";',
    );
  });

  it('escapes markup characters in text', () => {
    expect(escapeHtml(`<b a="1">'&'</b>`)).toBe('&lt;b a=&quot;1&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;');
  });
});
