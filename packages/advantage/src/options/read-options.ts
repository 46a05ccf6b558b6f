import { InvalidArgumentError } from '@skillrl/core';

/**
 * Reads one estimator's options object, checking each value as it is read. Unknown option names are an
 * error too: a misspelt `epsilon` silently falling back to the default is the kind of convention drift
 * this package exists to prevent.
 */
export class OptionReader {
  private readonly options: Record<string, unknown>;

  constructor(
    private readonly component: string,
    options: unknown,
    known: readonly string[],
  ) {
    if (options === undefined || options === null) {
      this.options = {};
      return;
    }
    if (typeof options !== 'object' || Array.isArray(options)) {
      throw new InvalidArgumentError('options', `${component}: expected an object, got ${describe(options)}`);
    }
    this.options = options as Record<string, unknown>;
    for (const name of Object.keys(this.options)) {
      if (!known.includes(name)) {
        throw new InvalidArgumentError(
          `options.${name}`,
          `${component} has no option "${name}"; known options: ${known.join(', ') || '(none)'}`,
        );
      }
    }
  }

  has(name: string): boolean {
    return this.options[name] !== undefined;
  }

  /** A finite number within `[min, max]` (`above`: strictly greater than). */
  number(name: string, fallback: number, range: { min?: number; max?: number; above?: number } = {}): number {
    const value = this.options[name];
    if (value === undefined) return fallback;
    const bounds = [
      range.min !== undefined ? `>= ${range.min}` : '',
      range.above !== undefined ? `> ${range.above}` : '',
      range.max !== undefined ? `<= ${range.max}` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    const ok =
      typeof value === 'number' &&
      Number.isFinite(value) &&
      (range.min === undefined || value >= range.min) &&
      (range.above === undefined || value > range.above) &&
      (range.max === undefined || value <= range.max);
    if (!ok) {
      throw new InvalidArgumentError(
        `options.${name}`,
        `${this.component}: expected a finite number${bounds ? ` ${bounds}` : ''}, got ${describe(value)}`,
      );
    }
    return value as number;
  }

  /** A number that may be absent (no default). */
  optionalNumber(name: string, range: { min?: number; max?: number } = {}): number | undefined {
    if (this.options[name] === undefined) return undefined;
    return this.number(name, 0, range);
  }

  choice<T extends string>(name: string, choices: readonly T[], fallback: T): T {
    const value = this.options[name];
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
      throw new InvalidArgumentError(
        `options.${name}`,
        `${this.component}: expected one of ${choices.map((c) => `'${c}'`).join(', ')}, got ${describe(value)}`,
      );
    }
    return value as T;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.options[name];
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') {
      throw new InvalidArgumentError(
        `options.${name}`,
        `${this.component}: expected true or false, got ${describe(value)}`,
      );
    }
    return value;
  }

  /**
   * A map from key to finite number, given as a plain object or a `Map` (keys compared as strings, so the
   * instance `7` and the key `'7'` match).
   */
  numberMap(name: string, range: { min?: number } = {}): Map<string, number> | undefined {
    const value = this.options[name];
    if (value === undefined) return undefined;
    let entries: [unknown, unknown][];
    if (value instanceof Map) entries = [...value.entries()];
    else if (value !== null && typeof value === 'object' && !Array.isArray(value))
      entries = Object.entries(value);
    else {
      throw new InvalidArgumentError(
        `options.${name}`,
        `${this.component}: expected an object or Map from key to number, got ${describe(value)}`,
      );
    }
    const out = new Map<string, number>();
    for (const [key, v] of entries) {
      if (typeof v !== 'number' || !Number.isFinite(v) || (range.min !== undefined && v < range.min)) {
        throw new InvalidArgumentError(
          `options.${name}.${String(key)}`,
          `${this.component}: expected a finite number${range.min !== undefined ? ` >= ${range.min}` : ''}, got ${describe(v)}`,
        );
      }
      out.set(String(key), v);
    }
    return out;
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) {
    return String(value);
  }
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
