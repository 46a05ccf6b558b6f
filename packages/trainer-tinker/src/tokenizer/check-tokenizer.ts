import { SkillrlError } from '@skillrl/core';

const MISMATCH = Symbol.for('skillrl.error.tinker-tokenizer-mismatch');

/** The tokenizer loaded is not the model's: prompts would be tokenized as another model reads them. */
export class TinkerTokenizerMismatchError extends SkillrlError {
  readonly tokenizerId: string;
  readonly names: readonly string[];

  constructor(message: string, details: { tokenizerId: string; names: readonly string[] }) {
    super('SKILLRL_TINKER_TOKENIZER_MISMATCH', message);
    Object.defineProperty(this, MISMATCH, { value: true });
    this.name = 'TinkerTokenizerMismatchError';
    this.tokenizerId = details.tokenizerId;
    this.names = details.names;
  }

  static override isInstance(error: unknown): error is TinkerTokenizerMismatchError {
    return (
      typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MISMATCH] === true
    );
  }
}

const matches = (pattern: string, id: string) => {
  const p = pattern.toLowerCase();
  const i = id.toLowerCase();
  return p.endsWith('*') ? i.startsWith(p.slice(0, -1)) : i === p;
};

/**
 * Checks a tokenizer against the model's `tokenizer_id` (`get_info`'s `model_data.tokenizer_id`):
 * `match` when one of its names matches, `unverified` when the tokenizer has no name or the server gave no
 * id (nothing to compare; name the tokenizer with the `name` option to have it checked), and a
 * `TinkerTokenizerMismatchError` naming both when they differ, unless `acceptMismatch` (then `accepted`).
 */
export function checkTokenizer(
  tokenizer: { names?: readonly string[]; source: string },
  tokenizerId: string | null | undefined,
  options: { acceptMismatch?: boolean } = {},
): 'match' | 'unverified' | 'accepted' {
  // A tokenizer built by hand may carry no names at all.
  const names = tokenizer.names ?? [];
  if (!tokenizerId || names.length === 0) return 'unverified';
  if (names.some((n) => matches(n, tokenizerId))) return 'match';
  if (options.acceptMismatch) return 'accepted';
  throw new TinkerTokenizerMismatchError(
    `the model's tokenizer is ${tokenizerId}, but the tokenizer loaded from ${tokenizer.source} is ${names.join(' / ')}: load the model's own tokenizer files, or set acceptTokenizerMismatch if the two are known to tokenize alike`,
    { tokenizerId, names },
  );
}
