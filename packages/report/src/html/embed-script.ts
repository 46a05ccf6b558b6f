/**
 * JSON for a `<script type="application/json">` block. `<` is escaped so no string in the data (a skill that
 * mentions `</script>`) can close the block early, and U+2028/2029 so older parsers read it as JSON does.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** JavaScript source made safe to inline in a `<script>` element. */
export function embedScript(source: string): string {
  // Inside string literals and comments `<\/script` reads the same; the HTML parser no longer sees an end tag.
  return source.replace(/<\/(script)/gi, '<\\/$1');
}
