/** Default cap on the characters one tool result shows (about 5,000 tokens). */
export const DEFAULT_TOOL_MAX_CHARS = 20_000;

export interface ToolTextWindow {
  /** The shown part. */
  text: string;
  /** A line saying what was left out and how to read on, or `undefined` when everything is shown. */
  note?: string;
}

/**
 * Shows `maxChars` characters of `text` from `offset`. A cut is said plainly, with the offset that reads on,
 * so a model never mistakes a truncated file for the whole of it. `tool` names the tool in that sentence.
 */
export function windowText(text: string, offset: number, maxChars: number, tool: string): ToolTextWindow {
  const total = text.length;
  if (offset >= total && total > 0) {
    return {
      text: '',
      note: `[offset ${offset} is past the end: the text has ${total} characters]`,
    };
  }
  const start = Math.max(0, offset);
  const end = Math.min(total, start + maxChars);
  const shown = text.slice(start, end);
  if (start === 0 && end === total) return { text: shown };
  const more =
    end < total ? ` Call ${tool} again with offset ${end} to read on.` : ' This is the end of the text.';
  return { text: shown, note: `[Showing characters ${start}–${end} of ${total}.${more}]` };
}

/** Reads an optional non-negative integer argument; `undefined` when absent, a message when malformed. */
export function offsetArgument(value: unknown): number | string {
  if (value === undefined || value === null) return 0;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    return `offset must be a whole number of characters >= 0, got ${JSON.stringify(value)}`;
  }
  return n;
}

/** A string argument, trimmed; `undefined` when absent or blank. */
export function stringArgument(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
