import { InvalidArgumentError } from '../errors/invalid-argument-error.js';

/** A seed: a safe integer or a string. The same seed gives the same sequence on every platform. */
export type Seed = number | string;

/** Everything needed to continue a stream exactly where it stopped (for checkpoints). */
export interface RngState {
  key: string;
  s: [number, number, number, number];
  /** Cached second Box–Muller deviate, if any. */
  spare: number | null;
}

/**
 * A deterministic random stream (xoshiro128**). Uses only 32-bit integer arithmetic (`Math.imul`, shifts),
 * so the sequence is identical on every JavaScript engine and platform.
 */
export interface Rng {
  /** The derivation path: the seed, then each fork label, joined by `/`. */
  readonly key: string;
  /** Uniform in [0, 1), 53 random bits. */
  float(): number;
  /** `int(n)`: uniform integer in [0, n). `int(min, max)`: uniform integer in [min, max). Unbiased. */
  int(minOrN: number, max?: number): number;
  /** A uniformly chosen element; throws on an empty array. */
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy (Fisher–Yates); the input is not modified. */
  shuffle<T>(items: readonly T[]): T[];
  /** Normal deviate (Box–Muller). */
  normal(mean?: number, std?: number): number;
  /** True with probability p. */
  bernoulli(p: number): boolean;
  /** A raw 32-bit unsigned integer. */
  uint32(): number;
  /**
   * An independent child stream named by `label`. It depends only on this stream's key and the label,
   * never on how many numbers were drawn before, so adding a draw somewhere does not reshuffle the rest.
   */
  fork(label: string | number): Rng;
  /** A seed for a component that takes a numeric seed, derived like `fork`. */
  seedFor(label: string | number): number;
  getState(): RngState;
}

function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Four independent 32-bit lanes from a string (murmur3-style mixing over UTF-16 code units). */
function hashKey(key: string): [number, number, number, number] {
  let h1 = 0x9e3779b9;
  let h2 = 0x243f6a88;
  let h3 = 0xb7e15162;
  let h4 = 0x6a09e667;
  for (let i = 0; i < key.length; i++) {
    const k = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ k, 0xcc9e2d51);
    h2 = Math.imul(h2 ^ k, 0x1b873593);
    h3 = Math.imul(h3 ^ k, 0x85ebca77);
    h4 = Math.imul(h4 ^ k, 0xc2b2ae3d);
    h1 = (h1 << 13) | (h1 >>> 19);
    h2 = (h2 << 15) | (h2 >>> 17);
    h3 = (h3 << 17) | (h3 >>> 15);
    h4 = (h4 << 19) | (h4 >>> 13);
  }
  const n = key.length;
  h1 = fmix32(h1 ^ n ^ h2);
  h2 = fmix32(h2 ^ n ^ h3);
  h3 = fmix32(h3 ^ n ^ h4);
  h4 = fmix32(h4 ^ n ^ h1);
  // xoshiro must not start from the all-zero state.
  if ((h1 | h2 | h3 | h4) === 0) h1 = 1;
  return [h1, h2, h3, h4];
}

function normaliseSeed(seed: Seed): string {
  if (typeof seed === 'number') {
    if (!Number.isSafeInteger(seed)) {
      throw new InvalidArgumentError('seed', `expected a safe integer or a string, got ${seed}`);
    }
    return String(seed);
  }
  if (typeof seed !== 'string') {
    throw new InvalidArgumentError('seed', `expected a safe integer or a string, got ${typeof seed}`);
  }
  return seed;
}

class Xoshiro128 implements Rng {
  readonly key: string;
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spare: number | null = null;

  constructor(key: string, state?: [number, number, number, number]) {
    this.key = key;
    const s = state ?? hashKey(key);
    this.s0 = s[0] >>> 0;
    this.s1 = s[1] >>> 0;
    this.s2 = s[2] >>> 0;
    this.s3 = s[3] >>> 0;
    if (!state) {
      // Warm up so that near-identical keys decorrelate fully.
      for (let i = 0; i < 8; i++) this.uint32();
    }
  }

  uint32(): number {
    const result = Math.imul(((Math.imul(this.s1, 5) << 7) | (Math.imul(this.s1, 5) >>> 25)) >>> 0, 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    this.s0 >>>= 0;
    this.s1 >>>= 0;
    this.s2 >>>= 0;
    this.s3 >>>= 0;
    return result;
  }

  float(): number {
    const hi = this.uint32() >>> 5; // 27 bits
    const lo = this.uint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  int(minOrN: number, max?: number): number {
    const lo = max === undefined ? 0 : minOrN;
    const hi = max === undefined ? minOrN : max;
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || hi <= lo) {
      throw new InvalidArgumentError(
        'int range',
        `expected safe integers with min < max, got [${lo}, ${hi}); int(n) needs n >= 1`,
      );
    }
    const span = hi - lo;
    if (span <= 0x100000000) {
      // Rejection sampling on 32 bits keeps the result unbiased.
      const limit = 0x100000000 - (0x100000000 % span);
      let x = this.uint32();
      while (x >= limit) x = this.uint32();
      return lo + (x % span);
    }
    return lo + Math.floor(this.float() * span);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new InvalidArgumentError('items', 'cannot pick from an empty array');
    return items[this.int(items.length)] as T;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  normal(mean = 0, std = 1): number {
    if (this.spare !== null) {
      const z = this.spare;
      this.spare = null;
      return mean + std * z;
    }
    let u = 0;
    while (u === 0) u = this.float();
    const v = this.float();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return mean + std * r * Math.cos(2 * Math.PI * v);
  }

  bernoulli(p: number): boolean {
    return this.float() < p;
  }

  fork(label: string | number): Rng {
    return new Xoshiro128(`${this.key}/${label}`);
  }

  seedFor(label: string | number): number {
    const [a, b] = hashKey(`${this.key}/${label}#seed`);
    // 53-bit non-negative safe integer.
    return (a >>> 11) * 4294967296 + b;
  }

  getState(): RngState {
    return { key: this.key, s: [this.s0, this.s1, this.s2, this.s3], spare: this.spare };
  }

  restore(state: RngState): this {
    this.spare = state.spare;
    return this;
  }
}

/** Creates a seeded random stream. Every random choice in skillrl flows from one of these. */
export function createRng(seed: Seed): Rng {
  return new Xoshiro128(normaliseSeed(seed));
}

/** Recreates a stream from `rng.getState()`: the next draws equal those the original would have made. */
export function restoreRng(state: RngState): Rng {
  if (!state || typeof state.key !== 'string' || !Array.isArray(state.s) || state.s.length !== 4) {
    throw new InvalidArgumentError('rng state', 'expected the object returned by rng.getState()');
  }
  return new Xoshiro128(state.key, [state.s[0], state.s[1], state.s[2], state.s[3]]).restore(state);
}
