// A number as people and models write it: optional sign, optional currency symbol, digits with optional
// thousands separators (commas, only in groups of three), optional decimals and exponent, optional percent sign.
const NUMBER =
  /(?:([-+−])\s*)?(?:([$€£¥])\s*)?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:[eE]([-+]?\d+))?\s*(%?)/g;

export interface ParsedNumber {
  value: number;
  /** The text the number was read from, as written. */
  text: string;
  percent: boolean;
  currency?: string;
}

/**
 * Every number in `text`, in order. `'$1,234.50'` → 1234.5, `'-3e2'` → -300, `'45%'` → 45 (the percent
 * sign is recorded in `percent`; `numeric({ percent: 'fraction' })` turns it into 0.45).
 */
export function parseNumbers(text: string): ParsedNumber[] {
  const out: ParsedNumber[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const [whole, sign, currency, digits, exponent, percent] = m;
    // A digit glued to a preceding letter or digit is part of a word or identifier ("x2", "A4"), not a number.
    const before = m.index > 0 ? text[m.index - 1] : '';
    if (before && /[A-Za-z_]/.test(before) && !sign && !currency) continue;
    const magnitude = Number(`${(digits ?? '').replace(/,/g, '')}${exponent ? `e${exponent}` : ''}`);
    if (!Number.isFinite(magnitude)) continue;
    // "5-3" or "2024-01": a dash between digits is a range or a separator, not a minus sign.
    const negative = (sign === '-' || sign === '−') && !(before && /[0-9A-Za-z]/.test(before));
    const parsed: ParsedNumber = {
      value: negative ? -magnitude : magnitude,
      text: (whole ?? '').trim(),
      percent: percent === '%',
    };
    if (currency) parsed.currency = currency;
    out.push(parsed);
  }
  return out;
}
