export type JsonExtraction =
  | { ok: true; value: unknown; from: 'whole' | 'fence' | 'span' }
  | { ok: false; error: string };

/**
 * Reads a JSON value out of a model's answer. `strict` parses the whole (trimmed) text. `lenient` also tries
 * the last ```json fenced block, then the span from the first `{` or `[` to the last `}` or `]`, because
 * models wrap JSON in prose and fences far more often than they get the JSON itself wrong.
 */
export function extractJson(text: string, mode: 'strict' | 'lenient'): JsonExtraction {
  const attempt = (source: string): { ok: true; value: unknown } | { ok: false; error: string } => {
    try {
      return { ok: true, value: JSON.parse(source) };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  };
  const whole = attempt(text.trim());
  if (whole.ok || mode === 'strict') return whole.ok ? { ...whole, from: 'whole' } : whole;
  const fences = [...text.matchAll(/```[a-zA-Z0-9_-]*\s*\n([\s\S]*?)```/g)];
  const fenced = fences[fences.length - 1]?.[1];
  if (fenced !== undefined) {
    const r = attempt(fenced.trim());
    if (r.ok) return { ...r, from: 'fence' };
  }
  const start = text.search(/[[{]/);
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  if (start >= 0 && end > start) {
    const r = attempt(text.slice(start, end + 1));
    if (r.ok) return { ...r, from: 'span' };
  }
  return whole;
}
